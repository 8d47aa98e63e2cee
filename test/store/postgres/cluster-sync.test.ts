import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AccessTokenCodec } from '../../../src/domain/auth/access-token.js';
import { AdminPassword } from '../../../src/domain/auth/admin-password.js';
import { AuthService } from '../../../src/domain/auth/auth-service.js';
import { SharedRateLimiter } from '../../../src/domain/auth/shared-rate-limiter.js';
import { ClusterSync } from '../../../src/domain/cluster/cluster-sync.js';
import { FrontState } from '../../../src/domain/front/front-state.js';
import { runtimeView } from '../../../src/domain/front/runtime-view.js';
import { validateMetricsReport } from '../../../src/domain/ingest/validate-metrics.js';
import { NodeEvents } from '../../../src/domain/nodes/node-events.js';
import { NodeSecretIndex } from '../../../src/domain/nodes/secret-index.js';
import { systemClock } from '../../../src/platform/clock.js';
import { PgMetricsEngine } from '../../../src/store/postgres/metrics-engine.js';
import { PgBus } from '../../../src/store/postgres/notify.js';
import { openPostgresStore } from '../../../src/store/postgres/open.js';
import { rateCountersRepo } from '../../../src/store/queries/rate-counters.js';
import { agentReport } from '../../support/agent-payloads.js';
import { metricsWrite } from '../../support/metrics-writes.js';
import { freshSchema } from '../../support/postgres.js';
import { POSTGRES_AVAILABLE } from '../engines.js';

const until = async (check: () => boolean | Promise<boolean>, ms = 5000) => {
  const end = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
  return performance.now();
};

/** One Dash instance's hot state over the shared schema, wired as `dash serve` wires it. */
async function instance(url: string, channel: string, tokenKey: Buffer, lazy = false) {
  const store = await openPostgresStore(url, Date.now(), { max: 4 });
  const errors: unknown[] = [];
  const onError = (err: unknown) => errors.push(err);
  const bus = new PgBus(url, store.pool);
  const front = new FrontState({ repo: store.front, staleAfterSec: 30, warn: () => {} });
  await front.load();
  const nodeEvents = new NodeEvents();
  nodeEvents.on((e) => front.onNodeEvent(e));
  const secrets = new NodeSecretIndex();
  const reloadSecrets = async () => secrets.load(await store.nodes.liveSecretHashes());
  await reloadSecrets();
  const password = new AdminPassword(store.settings, systemClock);
  const auth = new AuthService(
    store.sessions,
    store.settings,
    password,
    new AccessTokenCodec(tokenKey),
    systemClock,
    { accessTtlMs: 60_000, sessionTtlMs: 3_600_000 },
  );
  await auth.load();
  const limiter = new SharedRateLimiter({
    repo: rateCountersRepo(store.db),
    scope: 'login',
    clock: systemClock,
    limit: 5,
    windowMs: 60_000,
    onError,
    onLimited: (key, start) => sync.keyLimited('login', key, start),
  });
  const remote: number[] = [];
  const sync: ClusterSync = new ClusterSync({
    bus,
    channel,
    instanceId: randomBytes(4).toString('hex'),
    onError,
    followers: {
      // Lazy: as an instance that is not the alert leader follows (deps-cluster.ts).
      front: lazy
        ? {
            refreshCurrent: async (ids) => {
              front.follow(ids);
              return [];
            },
            load: () => front.load(),
          }
        : front,
      onRemoteReports: (ids) => void remote.push(...ids),
      nodeEvents,
      reloadSecrets,
      auth,
      limiters: { login: limiter },
      settings: {},
    },
  });
  auth.shareAcrossInstances((c) => sync.sessionChanged(c));
  await sync.start();
  const engine = new PgMetricsEngine(store.pool, Date.now, store.partitions, undefined, true);
  /** What MetricsIngest does with an accepted report. */
  const report = async (nodeId: number, receivedAt: number) => {
    const write = metricsWrite(nodeId, receivedAt);
    const v = validateMetricsReport(agentReport());
    const runtime = runtimeView(v.metrics, receivedAt, v.reportedAt, 'x');
    write.current.runtime = runtime;
    const [outcome] = await engine.commitBatch([write]);
    expect(outcome).toBe('current');
    front.apply(nodeId, runtime, write.current);
    sync.reportApplied(nodeId);
  };
  return {
    store,
    bus,
    front,
    nodeEvents,
    secrets,
    auth,
    password,
    limiter,
    sync,
    remote,
    errors,
    report,
    async close() {
      sync.stop();
      await limiter.settled();
      await bus.close();
      await store.close();
    },
  };
}

type Instance = Awaited<ReturnType<typeof instance>>;

describe.skipIf(!POSTGRES_AVAILABLE)('two instances on one PostgreSQL (ClusterSync)', () => {
  let schema: Awaited<ReturnType<typeof freshSchema>>;
  let a: Instance;
  let b: Instance;
  let nodeId = 0;
  let channel = '';
  let key = Buffer.alloc(0);
  beforeAll(async () => {
    schema = await freshSchema();
  });
  afterAll(async () => schema?.drop());
  beforeEach(async () => {
    channel = `dash_t_${randomBytes(4).toString('hex')}`;
    key = randomBytes(32);
    a = await instance(schema.url, channel, key);
    b = await instance(schema.url, channel, key);
    const made = await a.store.nodes.create(
      { name: 'n', secretHash: NodeSecretIndex.hash(`s-${channel}`), secretEnc: 'e' },
      Date.now(),
    );
    if (!made.ok) throw new Error('create failed');
    nodeId = made.id;
    await a.nodeEvents.emit({ type: 'created', nodeId });
  });
  afterEach(async () => {
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
    await a.close();
    await b.close();
  });

  it('a report accepted on one instance reaches the other front view within a second', async () => {
    await until(() => b.secrets.has(nodeId));
    for (let i = 0; i < 6; i++) {
      const [to, other] = i % 2 === 0 ? [a, b] : [b, a];
      const receivedAt = Date.now();
      const sent = performance.now();
      await to.report(nodeId, receivedAt);
      const seen = await until(() => other.front.receivedAt(nodeId) === receivedAt, 1000);
      expect(seen - sent).toBeLessThan(1000);
      expect(other.front.json(nodeId)).toBe(to.front.json(nodeId));
      await new Promise((r) => setTimeout(r, 5));
    }
    // Reports accepted elsewhere are handed on (alert evaluation on the leading instance).
    expect(a.remote.filter((id) => id === nodeId)).toHaveLength(3);
    expect(b.remote.filter((id) => id === nodeId)).toHaveLength(3);
  });

  it("an instance that follows lazily shows the other one's report on its next read, within a second", async () => {
    const lazy = await instance(schema.url, channel, key, true);
    try {
      for (let i = 0; i < 4; i++) {
        const to = i % 2 === 0 ? a : b;
        const receivedAt = Date.now();
        const sent = performance.now();
        await to.report(nodeId, receivedAt);
        // What every reader of its views does first (front snapshot, pages, /metrics).
        const seen = await until(async () => {
          await lazy.front.catchUp();
          return lazy.front.receivedAt(nodeId) === receivedAt;
        }, 1000);
        expect(seen - sent).toBeLessThan(1000);
        expect(lazy.front.json(nodeId)).toBe(to.front.json(nodeId));
      }
      expect(lazy.remote).toEqual([]);
      expect(lazy.errors).toEqual([]);
    } finally {
      await lazy.close();
    }
  });

  it('follows node record changes: secrets, deletion', async () => {
    await until(() => b.secrets.has(nodeId));
    await a.store.nodes.update(
      nodeId,
      { secret: { hash: NodeSecretIndex.hash('rotated'), enc: 'e2' } },
      Date.now(),
    );
    await a.nodeEvents.emit({ type: 'updated', nodeId });
    await until(() => b.secrets.lookup('rotated') === nodeId);
    await a.report(nodeId, Date.now());
    await until(() => b.front.json(nodeId) !== undefined);
    await a.store.nodes.softDelete(nodeId, Date.now());
    await a.nodeEvents.emit({ type: 'deleted', nodeId });
    await until(() => !b.secrets.has(nodeId) && b.front.json(nodeId) === undefined);
  });

  it('a login on one instance works on the other; logout and a new password end it everywhere', async () => {
    await a.password.set('correct horse battery');
    const s = await a.auth.login('correct horse battery', 'persistent');
    // The other instance may not have heard of it yet: it looks the session up.
    expect(await b.auth.authenticateShared(s.accessToken)).toBe(s.sessionId);
    // Rotated on B, refreshed again on A with B's cookie.
    const r1 = await b.auth.refresh(s.refreshCookie, s.csrfToken, s.csrfToken);
    const r2 = await a.auth.refresh(r1.refreshCookie, r1.csrfToken, r1.csrfToken);
    expect(await b.auth.authenticateShared(r2.accessToken)).toBe(s.sessionId);
    await a.auth.revoke(s.sessionId);
    await until(() => b.auth.authenticate(r2.accessToken) === undefined);
    expect(await b.auth.authenticateShared(r2.accessToken)).toBeUndefined();

    const s2 = await b.auth.login('correct horse battery', 'session');
    expect(await a.auth.authenticateShared(s2.accessToken)).toBe(s2.sessionId);
    // A misses the password change message: B's new token still works on A (the newer
    // version in the token makes A read the stored one), and A's old tokens stop.
    a.sync.stop();
    await b.password.set('a brand new password');
    const s3 = await b.auth.login('a brand new password', 'session');
    expect(await a.auth.authenticateShared(s3.accessToken)).toBe(s3.sessionId);
    expect(await a.auth.authenticateShared(s2.accessToken)).toBeUndefined();
  });

  it('counts failed logins of one client across both instances', async () => {
    const key = `198.51.100.${Math.floor(Math.random() * 200)}`;
    for (let i = 0; i < 4; i++) (i % 2 === 0 ? a : b).limiter.hit(key);
    await a.limiter.settled();
    await b.limiter.settled();
    expect(a.limiter.isLimited(key) || b.limiter.isLimited(key)).toBe(false);
    b.limiter.hit(key);
    await b.limiter.settled();
    // Five failures in all: limited on B by the shared count, on A by B's announcement.
    expect(b.limiter.isLimited(key)).toBe(true);
    await until(() => a.limiter.isLimited(key));
    expect(a.limiter.retryAfterMs(key)).toBeGreaterThan(0);
    expect(a.limiter.isLimited('203.0.113.1')).toBe(false);
  });

  it('re-reads everything after the bus reconnected', async () => {
    await until(() => b.secrets.has(nodeId));
    // B misses this report's message (as if its listening connection had dropped).
    b.sync.stop();
    const receivedAt = Date.now();
    await a.report(nodeId, receivedAt);
    await a.sync.flush();
    await new Promise((r) => setTimeout(r, 100));
    expect(b.front.receivedAt(nodeId)).not.toBe(receivedAt);
    await b.sync.resync();
    expect(b.front.receivedAt(nodeId)).toBe(receivedAt);
  });
});
