import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { adminHeaders } from '../../support/credentials.js';
import { seedNode } from '../../support/seed-nodes.js';
import { postAgentReport } from '../../support/post-report.js';

/**
 * The collector stores counters once a minute; reads add the samples it has not stored yet, so
 * what a user sees is as fresh as each accepted report.
 */

let t: TestApp;
let admin: Record<string, string>;
let nodeId: number;
let secret: string;
const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const MIN = 60_000;

beforeEach(async () => {
  t = await buildTestApp();
  await t.deps.scheduler.stop();
  ({ id: nodeId, secret } = await seedNode(t, { name: 'web-01' }));
});
afterEach(async () => t.close());

async function get(path: string) {
  const res = await t.app.inject({ method: 'GET', url: path, headers: admin });
  expect(res.statusCode).toBe(200);
  return res.json<Record<string, unknown>>();
}

/** eth0 every 30 s for minutes [from, to), 1,000 B/s in and 250 B/s out; eth9 from minute 50. */
function feed(from: number, to: number) {
  for (let s = from * 2; s < to * 2; s++) {
    const at = T0 + s * 30_000;
    const ifaces = [{ name: 'eth0', rx: 7_000 + s * 30_000, tx: s * 7_500 }];
    if (s >= 100) ifaces.push({ name: 'eth9', rx: s, tx: s });
    t.deps.traffic.collector.enqueue({ nodeId, receivedAt: at, ifaces });
  }
}

async function everything() {
  const q = `server_id=${nodeId}&iface=eth0`;
  return {
    ifaces: await get(`/api/statistics/traffic/ifaces?server_id=${nodeId}`),
    summary: await get(`/api/statistics/traffic/summary?${q}`),
    monthly: await get(`/api/statistics/traffic/monthly?${q}&months=2`),
    daily:
      (await t.deps.trafficSettings.get()).usage_mode === 'billing'
        ? await get(`/api/statistics/traffic/daily?${q}`)
        : undefined,
  };
}

it('stores counters once a minute on SQLite, every 10 s on PostgreSQL (followers read no queue)', () => {
  const job = t.deps.scheduler.job('traffic-collect')!;
  const every = t.deps.store.engine === 'sqlite' ? 60_000 : 10_000;
  expect(job.nextRunAt(T0 + 5_000)).toBe(T0 + 5_000 + every);
});

describe.each(['lite', 'billing'] as const)('traffic reads in %s mode', (mode) => {
  beforeEach(async () => {
    await t.deps.trafficSettings.patch({ usage_mode: mode });
    t.clock.set(T0 + 60 * MIN);
    admin = await adminHeaders(t);
  });

  it('include the samples not stored yet, as they read once stored', async () => {
    feed(0, 30);
    await t.deps.traffic.collector.flush();
    feed(30, 60);
    expect(t.deps.traffic.collector.pending).toBeGreaterThan(0);
    const before = await everything();
    expect((before.summary.stats as { in_bytes: number }).in_bytes).toBe(1000 * (60 * 60 - 30));
    expect(before.ifaces).toEqual([{ name: 'eth0' }, { name: 'eth9' }]);
    await t.deps.traffic.collector.flush();
    expect(t.deps.traffic.collector.pending).toBe(0);
    expect(await everything()).toEqual(before);
  });

  it('count every byte after losing the queued samples (a crash), as counters are cumulative', async () => {
    feed(0, 20);
    await t.deps.traffic.collector.flush();
    feed(20, 40);
    // What a crash loses: the queue (and the cursors, read again from the store).
    await t.deps.traffic.collector.discardQueued();
    feed(40, 60);
    await t.deps.traffic.collector.flush();
    const { stats } = (await everything()).summary as {
      stats: { in_bytes: number; out_bytes: number };
    };
    expect(stats.in_bytes).toBe(1000 * (60 * 60 - 30));
    expect(stats.out_bytes).toBe(250 * (60 * 60 - 30));
  });

  it('include the open bucket right after a report, before and after a flush', async () => {
    /** Posts the agent report `seq` (eth0: 125,000 B/s in, 48,000 B/s out), 3 s after the last. */
    const report = async (seq: number) => {
      expect((await postAgentReport(t, secret, seq)).statusCode).toBe(200);
      t.clock.advance(3000);
    };
    const inBytes = async () =>
      ((await everything()).summary.stats as { in_bytes: number }).in_bytes;
    // The last seconds of a bucket (Billing figures count buckets before the clock's).
    t.clock.set(T0 + 64 * MIN + 48_000);
    admin = await adminHeaders(t);
    for (let seq = 0; seq < 3; seq++) await report(seq);
    await t.deps.traffic.collector.flush();
    await report(3);
    // 13:05:00: the bucket of the last report is the interface's open one.
    expect(t.clock.now()).toBe(T0 + 65 * MIN);
    const before = await everything();
    expect(await inBytes()).toBe(3 * 3 * 125_000);
    await t.deps.traffic.collector.flush();
    expect(await everything()).toEqual(before);
    if (t.engine === 'sqlite') {
      // Stored on the interface's cursor row until a later sample closes the bucket.
      expect(t.raw.prepare('SELECT count(*) FROM traffic_5m').pluck().get()).toBe(0);
      expect(
        t.raw.prepare("SELECT open_in FROM traffic_iface WHERE iface = 'eth0'").pluck().get(),
      ).toBe(3 * 3 * 125_000);
    }
  });
});
