import type { DashConfig } from './config/schema.js';
import { systemClock, type Clock } from './platform/clock.js';
import { createLogger, type Logger } from './platform/logger.js';
import { openStore } from './store/open.js';
import type { SqliteStore } from './store/sqlite/open.js';
import { AdminPassword } from './domain/auth/admin-password.js';
import { DASH_VERSION } from './version.js';
import { AGENT_VERSION } from './agent/version.js';
import { DataKey } from './platform/data-key.js';
import { NodeSecretIndex } from './domain/nodes/secret-index.js';
import { join } from 'node:path';
import { NodeEvents } from './domain/nodes/node-events.js';
import { noUpdateOffers, type UpdateOffers } from './domain/nodes/update-offers.js';

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
  /** Stops background work and closes the store; idempotent. */
  shutdown(): Promise<void>;
}

export interface DepsOverrides {
  clock?: Clock;
  log?: Logger;
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
  let closed = false;
  return {
    config,
    clock,
    log,
    store,
    versions: { dash: DASH_VERSION, node: AGENT_VERSION },
    adminPassword: new AdminPassword(store.settings, clock),
    dataKey,
    nodeSecrets,
    nodeEvents: new NodeEvents(),
    updateOffers: noUpdateOffers,
    async shutdown() {
      if (closed) return;
      closed = true;
      await store.close();
    },
  };
}
