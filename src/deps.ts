import type { DashConfig } from './config/schema.js';
import { systemClock, type Clock } from './platform/clock.js';
import { createLogger, type Logger } from './platform/logger.js';
import type { EngineKit } from './kits/engine-kit.js';
import { openEngineKit } from './kits/open.js';
import { AdminPassword } from './domain/auth/admin-password.js';
import { DASH_VERSION } from './version.js';
import { AGENT_VERSION } from './agent/version.js';
import { DataKey } from './platform/data-key.js';
import { NodeSecretIndex } from './domain/nodes/secret-index.js';
import { join } from 'node:path';
import { NodeEvents } from './domain/nodes/node-events.js';
import type { UpdateOffers } from './domain/nodes/update-offers.js';
import { GroupsService } from './domain/groups/service.js';
import { NodesService } from './domain/nodes/service.js';
import { NodeUpgrades } from './domain/nodes/upgrades.js';
import { DownloadGrants } from './domain/nodes/download-grants.js';
import { AgentAssetFiles } from './deploy/asset-files.js';
import { randomAlnum, type ScryptCost } from './platform/crypto.js';
import { AuthService } from './domain/auth/auth-service.js';
import { authSyncJob } from './jobs/auth-sync.js';
import { AccessTokenCodec } from './domain/auth/access-token.js';
import { RateLimiter, type RateLimit } from './domain/auth/rate-limiter.js';
import { Cluster } from './deps-cluster.js';
import { claimSharedDataKey } from './domain/cluster/shared-data-key.js';
import { SystemSettingsService } from './domain/settings/system-settings.js';
import { TrafficSettingsService } from './domain/settings/traffic-settings.js';
import { UptimeService } from './domain/uptime/uptime-service.js';
import { OnlineRateService } from './domain/uptime/online-rate.js';
import { HistoryService } from './domain/history/history-service.js';
import { Scheduler, type Job } from './jobs/scheduler.js';
import { uptimeFinalizeJob } from './jobs/uptime-finalize.js';
import { uptimeRetentionJob } from './jobs/uptime-retention.js';
import { InstallIdentity } from './domain/nodes/install-identity.js';
import { FrontState } from './domain/front/front-state.js';
import { ReportEvents } from './domain/ingest/report-events.js';
import { MetricsIngest } from './domain/ingest/metrics-ingest.js';
import { StaticIngest } from './domain/ingest/static-ingest.js';
import type { HistoryRepo, Store } from './store/ports.js';
import { StorageService } from './domain/history/storage-service.js';
import type { IngestBackend } from './workers/ingest-backend-port.js';
import { metricsRollupsJob } from './jobs/metrics-rollups.js';
import { metricsRetentionJob } from './jobs/metrics-retention.js';
import { createTelemetry, type Telemetry } from './telemetry/telemetry.js';
import { metricsExpositionJob } from './jobs/metrics-exposition.js';
import { createTraffic, type Traffic } from './domain/traffic/traffic-module.js';
import { flushIntervalOf, trafficCollectJob } from './jobs/traffic-collect.js';
import { trafficMaintenanceJob } from './jobs/traffic-maintenance.js';
import { AlertsService } from './domain/alerts/service.js';
import { alertsOfflineJob } from './jobs/alerts-offline.js';
import { ThemeStore } from './themes/theme-store.js';
import { ThemesService } from './themes/themes-service.js';
import { DashUpdater, type UpdaterOptions } from './updater/service.js';
import { feedFromConfig, RUNNING_ROOT } from './updater/create.js';
import { dashUpdateWatchJob } from './jobs/dash-update-watch.js';
import { ChannelsService } from './domain/channels/service.js';
import { OutboxWorker } from './domain/channels/outbox-worker.js';
import type { MtprotoGateway } from './domain/channels/mtproto.js';
import { channelSender } from './notify/sender.js';
import { lazyGramjsGateway } from './notify/mtproto-lazy.js';
import { notifyDeliveryJob } from './jobs/notify-delivery.js';

/** Everything the HTTP layer and jobs need, built once at start (composition root). */
export interface AppDeps {
  config: DashConfig;
  clock: Clock;
  log: Logger;
  store: Store;
  versions: { dash: string; node: string };
  adminPassword: AdminPassword;
  auth: AuthService;
  /** Failed logins per minute per client address (IPv4 address, IPv6 /64). */
  loginLimiter: RateLimit;
  /** Unknown X-Node-Secret attempts per minute per client address. */
  nodeAuthLimiter: RateLimit;
  systemSettings: SystemSettingsService;
  trafficSettings: TrafficSettingsService;
  uptime: UptimeService;
  onlineRate: OnlineRateService;
  historyService: HistoryService;
  /** Background jobs; `dash serve` starts them, shutdown stops them before the store closes. */
  scheduler: Scheduler;
  /** Encrypts secrets Dash must read back (node secrets, channel credentials). */
  dataKey: DataKey;
  /** X-Node-Secret → node id; kept in step with every secret change and deletion. */
  nodeSecrets: NodeSecretIndex;
  /** Node record changes, for hot state to follow. */
  nodeEvents: NodeEvents;
  /** Update manifests for the metrics response (node upgrades). */
  updateOffers: UpdateOffers;
  groups: GroupsService;
  nodes: NodesService;
  nodeUpgrades: NodeUpgrades;
  /** upgrade_token grants for /deploy downloads. */
  downloadGrants: DownloadGrants;
  /** Agent builds under $DASH_HOME/deploy. */
  agentAssets: AgentAssetFiles;
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
  /** GET /metrics: Dash's own metrics and the node exposition; undefined unless enabled. */
  telemetry: Telemetry | undefined;
  /** Traffic accounting: counters collector, reads, rebuild (issue 14). */
  traffic: Traffic;
  /** Alert rules, mounts, settings, events and their evaluation (issue 15). */
  alerts: AlertsService;
  /** Uploaded themes under $DASH_HOME/themes, the built-ins and the applied one. */
  themes: ThemesService;
  /** Dash's own updates (docs/operations.md). */
  updater: DashUpdater;
  /** Database size, growth and the history size budget (admin storage panel). */
  storage: StorageService;
  /** Notification channels and the MTProto login flow (issue 16). */
  channels: ChannelsService;
  /** Fans alert transitions out to channels and delivers them (the notify-delivery job). */
  notifyOutbox: OutboxWorker;
  /** Stops background work and closes the store; idempotent. */
  shutdown(): Promise<void>;
}

export interface DepsOverrides {
  clock?: Clock;
  log?: Logger;
  /** Bundled agent version (tests; the default is what the build ships). */
  nodeVersion?: string;
  /**
   * Where metrics writes run: a worker thread with its own connection (default for database
   * files) or the main connection (the only choice for in-memory databases).
   */
  ingestMode?: 'worker' | 'inline';
  /** Self-update seams (tests: a fake installed layout, no real restart). */
  updater?: Partial<Pick<UpdaterOptions, 'runningRoot' | 'runningVersion' | 'restart' | 'onPhase'>>;
  /** Telegram user-account client (tests pass a fake; the default is GramJS). */
  mtproto?: MtprotoGateway;
  /** scrypt cost of the admin password hash (tests pass a cheap one; default PASSWORD_COST). */
  passwordCost?: ScryptCost;
  /**
   * The engine, already open (tests open it themselves to reach its tables); the default
   * opens `config.database`. Shutdown closes it either way.
   */
  kit?: EngineKit;
}

/** Builds every service and loads hot state from the store. */
export async function createDeps(
  config: DashConfig,
  overrides: DepsOverrides = {},
): Promise<AppDeps> {
  const clock = overrides.clock ?? systemClock;
  const log = overrides.log ?? createLogger(config.logLevel);
  const kit = overrides.kit ?? (await openEngineKit(config.database, clock.now()));
  const store = kit.store;
  const keyPath = join(config.home, 'secrets', 'data.key');
  const dataKey = kit.ephemeral ? DataKey.ephemeral() : DataKey.fromFile(keyPath);
  if (kit.shared) await claimSharedDataKey(store.settings, dataKey, keyPath, clock.now());
  // The ingest threads as early as they can start (after the checks that stop `dash serve`
  // with a message, which threads would keep alive): each spends about a second loading and
  // compiling before it takes reports, in parallel with the rest of this start.
  const staleAfterSec = Math.ceil(config.nodeOfflineThresholdMs / 1000);
  const ingestMode = overrides.ingestMode ?? (kit.ephemeral ? 'inline' : 'worker');
  const ingestBackend = kit.ingestBackend({
    log,
    now: () => clock.now(),
    staleAfterSec,
    maxDevicesPerNode: config.nodeMaxDevices,
    threads: config.ingestThreads,
    mode: ingestMode,
    shared: kit.shared !== undefined,
  });
  const adminPassword = new AdminPassword(store.settings, clock, overrides.passwordCost);
  const auth = new AuthService(
    store.sessions,
    store.settings,
    adminPassword,
    new AccessTokenCodec(dataKey.derive('access-token')),
    clock,
    { accessTtlMs: config.accessTokenTtlMs, sessionTtlMs: config.sessionTtlMs },
  );
  await auth.load();
  const systemSettings = new SystemSettingsService(store.settings, clock);
  const uptime = new UptimeService(
    store.uptime,
    systemSettings,
    clock,
    config.timezone,
    config.nodeOfflineThresholdMs,
  );
  await uptime.load();
  const nodeEvents = new NodeEvents();
  nodeEvents.on((e) => {
    if (e.type === 'deleted') uptime.forgetNode(e.nodeId);
  });
  const scheduler = new Scheduler(clock, log);
  // Each instance follows `dash set-password` in its own memory: not an exclusive job.
  scheduler.add(authSyncJob(auth));
  const nodeSecrets = new NodeSecretIndex();
  nodeSecrets.load(await store.nodes.liveSecretHashes());
  const versions = { dash: DASH_VERSION, node: overrides.nodeVersion ?? AGENT_VERSION };
  const groups = new GroupsService(store.groups, clock);
  await groups.ensureDefault();
  const nodes = new NodesService({
    nodes: store.nodes,
    secrets: nodeSecrets,
    events: nodeEvents,
    sealer: dataKey,
    clock,
    log,
    appTimezone: config.timezone,
    generateSecret: randomAlnum,
  });
  const downloadGrants = new DownloadGrants(clock, randomAlnum);
  const agentAssets = new AgentAssetFiles(join(config.home, 'deploy'));
  const nodeUpgrades = new NodeUpgrades({
    nodes: store.nodes,
    assets: agentAssets,
    grants: downloadGrants,
    clock,
    log,
    bundledVersion: versions.node,
    publicUrl: config.publicUrl,
  });
  nodeEvents.on((e) => void (e.type === 'deleted' && nodeUpgrades.forget(e.nodeId)));
  const updateOffers: UpdateOffers = nodeUpgrades;
  const front = new FrontState({
    repo: store.front,
    staleAfterSec,
    warn: (msg, ctx) => log.warn(ctx, msg),
    onFacts: (nodeId, facts) => ingestBackend.setRenderFacts(nodeId, facts),
  });
  await front.load();
  nodeEvents.on((event) => front.onNodeEvent(event));
  const reportEvents = new ReportEvents();
  // Several instances may serve a PostgreSQL database (docs/postgresql.md "Between instances").
  const cluster = kit.shared
    ? new Cluster({
        ...kit.shared,
        clock,
        log,
        loginFailuresPerMinute: config.loginFailuresPerMinute,
        nodeAuthFailuresPerMinute: config.nodeAuthFailuresPerMinute,
        front,
        nodeEvents,
        nodeSecrets,
        liveSecretHashes: () => store.nodes.liveSecretHashes(),
        auth,
        systemSettings,
        uptime,
        reportEvents,
      })
    : undefined;
  /** Jobs on shared data: one instance runs each turn. */
  const once = (job: Job): Job => (cluster ? cluster.exclusive(job) : job);
  scheduler.add(once(uptimeFinalizeJob(uptime)));
  scheduler.add(once(uptimeRetentionJob(store.uptime, config.timezone)));
  const history = kit.historyReader();
  scheduler.add(once(metricsRollupsJob(ingestBackend, config.historySealMs)));
  scheduler.add(
    once(metricsRetentionJob(ingestBackend, config.rawRetentionDays, config.historyMaxBytes)),
  );
  for (const job of kit.jobs({ rawRetentionDays: config.rawRetentionDays })) scheduler.add(job);
  const telemetry = config.metrics.enabled
    ? createTelemetry({
        config: config.metrics,
        databaseBytes: () => kit.databaseBytes(),
        front,
        memberships: () => store.groups.memberships(),
        offlineAfterMs: config.nodeOfflineThresholdMs,
      })
    : undefined;
  if (telemetry) {
    scheduler.observe(telemetry.self);
    scheduler.add(metricsExpositionJob(telemetry.nodes, config.metrics.refreshIntervalMs));
  }
  const trafficSettings = new TrafficSettingsService(store.settings, clock);
  const traffic = createTraffic({
    nodes: store.nodes,
    traffic: store.traffic,
    adjustments: store.trafficAdjustments,
    settings: trafficSettings,
    clock,
    log,
    appZone: config.timezone,
    retentionDays: config.trafficRetentionDays,
    reportEvents,
    nodeEvents,
    ...(cluster ? { collects: () => cluster.leading() } : {}),
    // On the ingest writer thread where there is one (never the in-memory inline backend's),
    // paced: its chunks hold that thread and the write slot (docs/ingest-performance.md).
    ...(ingestMode === 'worker' && ingestBackend.applyTraffic
      ? { storeBatch: (b) => ingestBackend.applyTraffic!(b), paced: true }
      : {}),
  });
  scheduler.add(trafficCollectJob(traffic.collector, flushIntervalOf(config)));
  scheduler.add(once(trafficMaintenanceJob((now) => traffic.maintain(now))));
  const mtproto = overrides.mtproto ?? lazyGramjsGateway();
  const sender = channelSender({ telegramApiBase: config.telegramApiUrl, mtproto });
  const channels = new ChannelsService({
    repo: store.channels,
    sealer: dataKey,
    clock,
    sender,
    mtproto,
  });
  const notifyOutbox = new OutboxWorker({
    repo: store.channels,
    sealer: dataKey,
    clock,
    sender,
    warn: (ctx, msg) => log.warn(ctx, msg),
  });
  scheduler.add(once(notifyDeliveryJob(notifyOutbox)));
  const alerts = new AlertsService({
    repo: store.alerts,
    clock,
    channelsExist: (ids) => channels.allExist(ids),
    staleAfterMs: config.nodeOfflineThresholdMs,
    startupGraceMs: config.alertsStartupGraceMs,
    onError: (err) => log.error({ err }, 'alert evaluation failed'),
    ...(cluster
      ? { evaluates: () => cluster.leading(), onChanged: () => cluster.alertsChanged() }
      : {}),
  });
  await alerts.start(
    front.list().flatMap((item) => {
      const receivedAt = front.receivedAt(item.nodeId);
      return receivedAt === undefined ? [] : [{ nodeId: item.nodeId, receivedAt }];
    }),
  );
  reportEvents.onAccepted((event) => alerts.onReport(event));
  nodeEvents.on((event) => {
    if (event.type === 'deleted') return alerts.forgetNode(event.nodeId);
  });
  scheduler.add(alertsOfflineJob(alerts));
  if (cluster) {
    cluster.attach({ alerts, traffic: traffic.collector });
    await cluster.start();
  }
  const feed = feedFromConfig(config.home, config.update);
  const updater = new DashUpdater({
    home: config.home,
    ...('feed' in feed ? { feed: feed.feed } : { feed: undefined, feedProblem: feed.problem }),
    runningRoot: RUNNING_ROOT,
    runningVersion: versions.dash,
    nodeVersion: versions.node,
    clock,
    log,
    // A supervisor (systemd Restart=always) starts bin/dash again, now the new release.
    restart: () => {
      log.info('restarting into the updated release');
      setTimeout(() => process.kill(process.pid, 'SIGTERM'), 1000).unref();
    },
    ...overrides.updater,
  });
  scheduler.add(
    dashUpdateWatchJob({
      updater,
      settings: () => systemSettings.get(),
      log,
      intervalMs: config.update.checkIntervalMs,
      window: config.update.window,
      zone: config.timezone,
    }),
  );
  let closed = false;
  return {
    config,
    clock,
    log,
    store,
    versions,
    adminPassword,
    auth,
    loginLimiter:
      cluster?.loginLimiter ?? new RateLimiter(clock, config.loginFailuresPerMinute, 60_000),
    nodeAuthLimiter:
      cluster?.nodeAuthLimiter ?? new RateLimiter(clock, config.nodeAuthFailuresPerMinute, 60_000),
    systemSettings,
    trafficSettings,
    uptime,
    onlineRate: new OnlineRateService(store.uptime, clock),
    historyService: new HistoryService(kit.historyReader(), front, systemSettings, clock),
    scheduler,
    dataKey,
    nodeSecrets,
    nodeEvents,
    updateOffers: nodeUpgrades,
    groups,
    nodes,
    nodeUpgrades,
    downloadGrants,
    agentAssets,
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
      receipts: uptime,
      observer: telemetry?.self,
    }),
    staticIngest: new StaticIngest({
      clock,
      repo: store.nodeStatic,
      front,
      ...(cluster ? { onStored: (id: number) => cluster.staticStored(id) } : {}),
    }),
    history,
    ingestBackend,
    telemetry,
    traffic,
    alerts,
    themes: new ThemesService(new ThemeStore(join(config.home, 'themes')), clock),
    updater,
    storage: new StorageService(kit.storage, clock, {
      maxBytes: config.historyMaxBytes,
      rawRetentionDays: config.rawRetentionDays,
    }),
    channels,
    notifyOutbox,
    async shutdown() {
      if (closed) return;
      closed = true;
      traffic.rebuild.setAvailable(false);
      traffic.collector.hurry(); // a flush in progress ends without its gaps
      await scheduler.stop();
      await traffic.rebuild.settled();
      await traffic.collector.flush().catch((err: unknown) => log.error({ err }, 'traffic flush'));
      await channels.close();
      await alerts.flush();
      await updater.idle();
      await cluster?.stop();
      await ingestBackend.close();
      await store.close();
    },
  };
}
