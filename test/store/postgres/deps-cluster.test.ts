import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Cluster } from '../../../src/deps-cluster.js';
import { AccessTokenCodec } from '../../../src/domain/auth/access-token.js';
import { AdminPassword } from '../../../src/domain/auth/admin-password.js';
import { AuthService } from '../../../src/domain/auth/auth-service.js';
import { alertReadings } from '../../../src/domain/alerts/readings.js';
import type { AlertsService } from '../../../src/domain/alerts/service.js';
import { FrontState } from '../../../src/domain/front/front-state.js';
import { FrontMetricsCache } from '../../../src/http/routes/front/metrics-cache.js';
import { runtimeView } from '../../../src/domain/front/runtime-view.js';
import type { AcceptedReport } from '../../../src/domain/ingest/report-events.js';
import { ReportEvents } from '../../../src/domain/ingest/report-events.js';
import { validateMetricsReport } from '../../../src/domain/ingest/validate-metrics.js';
import { NodeEvents } from '../../../src/domain/nodes/node-events.js';
import { NodeSecretIndex } from '../../../src/domain/nodes/secret-index.js';
import { SystemSettingsService } from '../../../src/domain/settings/system-settings.js';
import { UptimeService } from '../../../src/domain/uptime/uptime-service.js';
import { systemClock } from '../../../src/platform/clock.js';
import { createLogger } from '../../../src/platform/logger.js';
import { PgMetricsEngine } from '../../../src/store/postgres/metrics-engine.js';
import { openPostgresStore } from '../../../src/store/postgres/open.js';
import { agentReport } from '../../support/agent-payloads.js';
import { metricsWrite } from '../../support/metrics-writes.js';
import { freshSchema } from '../../support/postgres.js';
import { POSTGRES_AVAILABLE } from '../engines.js';

const until = async (check: () => boolean, ms = 5000) => {
  const end = performance.now() + ms;
  while (!check()) {
    if (performance.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

/** The parts of one instance deps.ts hands the Cluster, and a stand-in for the alerts. */
async function instance(url: string, channel: string, key: Buffer) {
  const store = await openPostgresStore(url, Date.now(), { max: 4 });
  const log = createLogger('silent');
  let frontReads = 0;
  const repo: typeof store.front = {
    ...store.front,
    currentRows: (ids) => {
      frontReads++;
      return store.front.currentRows(ids);
    },
  };
  const front = new FrontState({ repo, staleAfterSec: 30, warn: () => {} });
  await front.load();
  const nodeEvents = new NodeEvents();
  nodeEvents.on((e) => front.onNodeEvent(e));
  const nodeSecrets = new NodeSecretIndex();
  nodeSecrets.load(await store.nodes.liveSecretHashes());
  const auth = new AuthService(
    store.sessions,
    store.settings,
    new AdminPassword(store.settings, systemClock),
    new AccessTokenCodec(key),
    systemClock,
    { accessTtlMs: 60_000, sessionTtlMs: 3_600_000 },
  );
  await auth.load();
  const systemSettings = new SystemSettingsService(store.settings, systemClock);
  const uptime = new UptimeService(store.uptime, systemSettings, systemClock, 'UTC', 10_000);
  const reportEvents = new ReportEvents();
  const cluster = new Cluster({
    url,
    pool: store.pool,
    db: store.db,
    clock: systemClock,
    log,
    loginFailuresPerMinute: 3,
    nodeAuthFailuresPerMinute: 3,
    channel,
    front,
    nodeEvents,
    nodeSecrets,
    liveSecretHashes: () => store.nodes.liveSecretHashes(),
    auth,
    systemSettings,
    uptime,
    reportEvents,
    leaderRetryMs: 50,
    // Advisory locks are database-wide: test files running at once must not share one.
    leaderName: `alerts-${channel}`,
  });
  // What the leader's alert evaluation is handed (AlertsService itself is tested elsewhere).
  const evaluated: AcceptedReport[] = [];
  let starts = 0;
  const alerts = {
    onReport: (e: AcceptedReport) => void evaluated.push(e),
    start: async () => void starts++,
    followStored: async () => {},
  };
  let resets = 0;
  let discards = 0;
  cluster.attach({
    alerts: alerts as unknown as AlertsService,
    traffic: {
      resetCursors: async () => void resets++,
      discardQueued: async () => void discards++,
    },
  });
  reportEvents.onAccepted((e) => {
    if (cluster.leading()) alerts.onReport(e);
  });
  await cluster.start();
  const engine = new PgMetricsEngine(store.pool, Date.now, store.partitions, undefined, true);
  const report = async (nodeId: number, receivedAt: number, seq = 0) => {
    const body = agentReport({ seq });
    const write = metricsWrite(nodeId, receivedAt);
    const v = validateMetricsReport(body);
    const runtime = runtimeView(v.metrics, receivedAt, v.reportedAt, 'x');
    write.current.runtime = runtime;
    expect(await engine.commitBatch([write])).toEqual(['current']);
    await front.ensureNode(nodeId);
    front.apply(nodeId, runtime, write.current);
    reportEvents.emitAccepted(
      {
        nodeId,
        receivedAt,
        counters: [],
        readings: undefined,
        view: () => front.view(nodeId),
      },
      () => {},
    );
  };
  return {
    store,
    cluster,
    front,
    systemSettings,
    evaluated,
    starts: () => starts,
    resets: () => resets,
    discards: () => discards,
    report,
    frontReads: () => frontReads,
    async close() {
      await cluster.stop();
      await store.close();
    },
  };
}

describe.skipIf(!POSTGRES_AVAILABLE)('Cluster: the composition for several instances', () => {
  let schema: Awaited<ReturnType<typeof freshSchema>>;
  let a: Awaited<ReturnType<typeof instance>>;
  let b: Awaited<ReturnType<typeof instance>>;
  let nodeId: number;
  beforeAll(async () => {
    schema = await freshSchema();
  });
  afterAll(async () => schema?.drop());
  beforeEach(async () => {
    const channel = `dash_t_${randomBytes(4).toString('hex')}`;
    const key = randomBytes(32);
    a = await instance(schema.url, channel, key);
    b = await instance(schema.url, channel, key);
    const made = await a.store.nodes.create(
      { name: 'n', secretHash: NodeSecretIndex.hash(channel), secretEnc: 'e' },
      Date.now(),
    );
    if (!made.ok) throw new Error('create failed');
    nodeId = made.id;
  });
  afterEach(async () => {
    await a?.close();
    await b?.close();
  });

  it('one instance evaluates alerts for every report, whichever instance accepted it', async () => {
    expect([a.cluster.leading(), b.cluster.leading()]).toEqual([true, false]);
    expect(a.starts()).toBe(1);
    const t = Date.now();
    await a.report(nodeId, t);
    const onA = alertReadings(a.front.view(nodeId)!);
    await b.report(nodeId, t + 10, 40);
    const onB = alertReadings(b.front.view(nodeId)!);
    await until(() => a.evaluated.length === 2);
    expect(a.evaluated.map((e) => e.receivedAt)).toEqual([t, t + 10]);
    // Evaluated on what B accepted (the re-read view), not on what A held before.
    expect(a.evaluated[1]?.readings).toEqual(onB);
    expect(onB).not.toEqual(onA);
    // ... and with B's interface counters, for traffic collection on the leader.
    const counters = b.front.view(nodeId)!.network.by_interface!.map((i) => ({
      name: i.name,
      rx: i.bytes_recv,
      tx: i.bytes_sent,
    }));
    expect(counters.length).toBeGreaterThan(0);
    expect(a.evaluated[1]?.counters).toEqual(counters);
    expect(b.evaluated).toEqual([]);
    // The leader stops: the other takes over and restores the open events.
    await a.cluster.stop();
    // The former leader forgets its queued traffic samples (the new one pairs past them).
    expect(a.discards()).toBe(1);
    // Taking over, it first reads what it only noted as a follower, then starts the alerts.
    await until(() => b.cluster.leading() && b.starts() === 1);
    expect([b.starts(), b.resets(), b.discards()]).toEqual([1, 1, 0]);
    expect(b.front.unreadFollowed).toBe(0);
    await b.report(nodeId, t + 20);
    expect(b.evaluated.map((e) => e.receivedAt)).toEqual([t + 20]);
  });

  it("the instance that does not lead renders the other one's reports only when they are read", async () => {
    expect([a.cluster.leading(), b.cluster.leading()]).toEqual([true, false]);
    const t = Date.now();
    await b.report(nodeId, t);
    // The leader follows at once: it renders and evaluates every report.
    await until(() => a.front.receivedAt(nodeId) === t);
    await a.report(nodeId, t + 10, 40);
    expect(a.evaluated.map((e) => e.receivedAt)).toEqual([t, t + 10]);
    // B only notes the node: no read, its view is still its own report.
    const reads = b.frontReads();
    await until(() => b.front.unreadFollowed === 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(b.frontReads()).toBe(reads);
    expect(b.front.receivedAt(nodeId)).toBe(t);
    // The first read catches up (one read) and shows A's report.
    const cache = new FrontMetricsCache(b.front, systemClock);
    const got = cache.get('admin');
    expect(got).toBeInstanceOf(Promise);
    const [view] = JSON.parse((await got).body.toString()) as unknown[];
    expect(view).toEqual(a.front.view(nodeId));
    expect(b.frontReads()).toBe(reads + 1);
    expect(b.front.unreadFollowed).toBe(0);
    // Nothing noted since: the next read is served as it is.
    expect(cache.get('admin')).not.toBeInstanceOf(Promise);
  });

  it('settings saved on one instance are read afresh on the other; limits are shared', async () => {
    expect((await b.systemSettings.get()).uptime_guest_visible).toBe(true);
    await a.systemSettings.patch({ uptime_guest_visible: false });
    await until(() => (b.systemSettings as unknown as { cache?: unknown }).cache === undefined);
    expect((await b.systemSettings.get()).uptime_guest_visible).toBe(false);

    const key = '192.0.2.77';
    a.cluster.nodeAuthLimiter.hit(key);
    b.cluster.nodeAuthLimiter.hit(key);
    a.cluster.nodeAuthLimiter.hit(key);
    await a.cluster.nodeAuthLimiter.settled();
    await b.cluster.nodeAuthLimiter.settled();
    // Whichever instance's write reached the limit announces it; the other learns over the bus.
    await until(
      () => a.cluster.nodeAuthLimiter.isLimited(key) && b.cluster.nodeAuthLimiter.isLimited(key),
    );
    expect(a.cluster.loginLimiter.isLimited(key)).toBe(false);
  });

  it('runs an exclusive job once per turn across the instances', async () => {
    let runs = 0;
    const job = {
      name: `t-${randomBytes(3).toString('hex')}`,
      nextRunAt: (now: number) => now + 1000,
      runOnce: async () => {
        runs++;
        await new Promise((r) => setTimeout(r, 100));
      },
    };
    await Promise.all([a.cluster.exclusive(job).runOnce(0), b.cluster.exclusive(job).runOnce(0)]);
    expect(runs).toBe(1);
  });
});
