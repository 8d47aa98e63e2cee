import type { DashConfig } from './config/schema.js';
import { systemClock, type Clock } from './platform/clock.js';
import { createLogger, type Logger } from './platform/logger.js';
import { openStore } from './store/open.js';
import type { SqliteStore } from './store/sqlite/open.js';
import { AdminPassword } from './domain/auth/admin-password.js';
import { DASH_VERSION } from './version.js';
import { DataKey } from './platform/data-key.js';
import { NodeSecretIndex } from './domain/nodes/secret-index.js';
import { join } from 'node:path';
import { NodeEvents } from './domain/nodes/node-events.js';
import { noUpdateOffers, type UpdateOffers } from './domain/nodes/update-offers.js';
import { InstallIdentity } from './domain/nodes/install-identity.js';
import { FrontState } from './domain/front/front-state.js';
import { ReportEvents } from './domain/ingest/report-events.js';
import { MetricsIngest } from './domain/ingest/metrics-ingest.js';
import { StaticIngest } from './domain/ingest/static-ingest.js';
import type { HistoryRepo } from './store/ports.js';
import { frontRepo } from './store/queries/node-front.js';
import { nodeStaticRepo } from './store/queries/node-static.js';
import { historyReader } from './store/sqlite/history-reader.js';
import {
  inlineIngestBackend,
  workerIngestBackend,
  type IngestBackend,
} from './workers/ingest-backend.js';
import { Scheduler } from './jobs/scheduler.js';
import { metricsRollupsJob } from './jobs/metrics-rollups.js';
import { metricsRetentionJob } from './jobs/metrics-retention.js';

/** Everything the HTTP layer and jobs need, built once at start (composition root). */
export interface AppDeps {
  config: DashConfig;
  clock: Clock;
  log: Logger;
  store: SqliteStore;
  versions: { dash: string; node: string };
  adminPassword: AdminPassword;
  /** Encrypts secrets Dash must read back (node secrets, channel credentials). */
  dataKey: DataKey;
  /** X-Node-Secret → node id; kept in step with every secret change and deletion. */
  nodeSecrets: NodeSecretIndex;
  /** Node record changes, for hot state to follow. */
  nodeEvents: NodeEvents;
  /** Update manifests for the metrics response (node upgrades). */
  updateOffers: UpdateOffers;
  /** This installation's id for POST /api/node/identity. */
  installIdentity: InstallIdentity;
  /** Front views of every node, ready to serve (GET /api/front/metrics). */
  front: FrontState;
  /** Reports that became a node's current projection (traffic accounting, alerts). */
  reportEvents: ReportEvents;
  metricsIngest: MetricsIngest;
  staticIngest: StaticIngest;
  /** Metrics history reads (raw, 15-minute and 1-hour sources). */
  history: HistoryRepo;
  /**
   * Where metrics reports are decoded, validated and committed (group commit), and where
   * rollups and retention run: a worker thread for database files, inline for in-memory ones.
   */
  ingestBackend: IngestBackend;
  /** Background jobs; `dash serve` starts them, shutdown stops them. */
  jobs: Scheduler;
  /** Stops background work and closes the store; idempotent. */
  shutdown(): Promise<void>;
}

export interface DepsOverrides {
  clock?: Clock;
  log?: Logger;
  /**
   * Where metrics writes run: a worker thread with its own connection (default for database
   * files) or the main connection (the only choice for in-memory databases).
   */
  ingestMode?: 'worker' | 'inline';
}

/** Builds every service and loads hot state from the store. */
export async function createDeps(
  config: DashConfig,
  overrides: DepsOverrides = {},
): Promise<AppDeps> {
  const clock = overrides.clock ?? systemClock;
  const log = overrides.log ?? createLogger(config.logLevel);
  const store = openStore(config.database, clock.now());
  const dataKey =
    config.database.kind === 'sqlite' && config.database.path === ':memory:'
      ? DataKey.ephemeral()
      : DataKey.fromFile(join(config.home, 'secrets', 'data.key'));
  const nodeSecrets = new NodeSecretIndex();
  nodeSecrets.load(await store.nodes.liveSecretHashes());
  const nodeEvents = new NodeEvents();
  const updateOffers = noUpdateOffers;
  const inMemory = config.database.kind === 'sqlite' && config.database.path === ':memory:';
  const ingestMode = overrides.ingestMode ?? (inMemory ? 'inline' : 'worker');
  const ingestBackend =
    ingestMode === 'worker' && config.database.kind === 'sqlite'
      ? workerIngestBackend(config.database.path, log, () => clock.now())
      : inlineIngestBackend(store.raw, () => clock.now());
  const front = new FrontState({
    repo: frontRepo(store.db),
    staleAfterSec: Math.ceil(config.nodeOfflineThresholdMs / 1000),
    warn: (msg, ctx) => log.warn(ctx, msg),
  });
  await front.load();
  nodeEvents.on((event) => front.onNodeEvent(event));
  const reportEvents = new ReportEvents();
  const jobs = new Scheduler(
    [metricsRollupsJob(ingestBackend), metricsRetentionJob(ingestBackend, config.rawRetentionDays)],
    clock,
    log,
  );
  let closed = false;
  return {
    config,
    clock,
    log,
    store,
    versions: { dash: DASH_VERSION, node: 'unknown' },
    adminPassword: new AdminPassword(store.settings, clock),
    dataKey,
    nodeSecrets,
    nodeEvents,
    updateOffers,
    installIdentity: new InstallIdentity(config.home),
    front,
    reportEvents,
    metricsIngest: new MetricsIngest({
      clock,
      log,
      processor: ingestBackend,
      front,
      events: reportEvents,
      offers: updateOffers,
    }),
    staticIngest: new StaticIngest({ clock, repo: nodeStaticRepo(store.db), front }),
    history: historyReader(store.raw),
    ingestBackend,
    jobs,
    async shutdown() {
      if (closed) return;
      closed = true;
      await jobs.stop();
      await ingestBackend.close();
      await store.close();
    },
  };
}
