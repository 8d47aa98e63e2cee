import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { adminHeaders } from '../../support/credentials.js';
import { seedNode } from '../../support/seed-nodes.js';
import type { DailyItem, TrafficSummary } from '../../../src/domain/traffic/reads.js';
import { TrafficRebuild } from '../../../src/domain/traffic/rebuild.js';
import type { TrafficRepo } from '../../../src/store/ports.js';

/** Defects found re-checking the traffic reads as a user comparing them with a bill would. */

const MIN = 60_000;
const HOUR = 60 * MIN;
let t: TestApp;
let admin: Record<string, string>;
let nodeId: number;

beforeEach(async () => {
  t = await buildTestApp();
  await t.deps.scheduler.stop();
  admin = await adminHeaders(t);
  nodeId = (await seedNode(t)).id;
  await t.deps.trafficSettings.patch({ usage_mode: 'billing' });
});
afterEach(async () => t.close());

/** One sample a minute over [from, to], `rate` B/s in each direction. */
async function feed(from: number, to: number, rate = 100) {
  for (let at = from; at <= to; at += MIN) {
    const n = ((at - from) / 1000) * rate;
    t.deps.traffic.collector.enqueue({
      nodeId,
      receivedAt: at,
      ifaces: [{ name: 'eth0', rx: n, tx: n }],
    });
  }
  await t.deps.traffic.collector.flush();
}
async function at(ms: number) {
  t.clock.set(ms);
  admin = await adminHeaders(t);
}
const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin });

describe('traffic reads at their edges', () => {
  it('daily: today is not complete before it ends, although its window stops at now', async () => {
    const start = Date.UTC(2026, 10, 20, 18);
    const now = Date.UTC(2026, 10, 21, 10);
    await feed(start, now);
    await at(now);
    const res = await get(`/api/statistics/traffic/daily?server_id=${nodeId}&iface=eth0`);
    const items = res.json<{ items: DailyItem[] }>().items;
    expect(items.map((i) => [i.start, i.end, i.stats.cycle_complete, i.stats.status])).toEqual([
      ['2026-11-20T18:00:00Z', '2026-11-21T00:00:00Z', true, 'grace'],
      ['2026-11-21T00:00:00Z', '2026-11-21T10:00:00Z', false, 'provisional'],
    ]);
    expect(items[1]!.stats.in_bytes).toBe((10 * HOUR) / 10);
  });

  it('rebuild: samples collected while a chunk is being rewritten are not lost', async () => {
    const start = Date.UTC(2026, 10, 21, 6);
    await feed(start, start + 60 * MIN);
    t.clock.set(start + 60 * MIN);
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    let arrived = () => {};
    const reached = new Promise<void>((r) => (arrived = r));
    const repo = t.deps.store.traffic;
    // Holds the chunk between reading its counters and writing its facts.
    const gated: TrafficRepo = {
      ...repo,
      async countersAround(nodeId, from, to) {
        const out = await repo.countersAround(nodeId, from, to);
        arrived();
        await gate;
        return out;
      },
    };
    const rebuild = new TrafficRebuild({
      nodes: t.deps.store.nodes,
      traffic: gated,
      settings: t.deps.trafficSettings,
      clock: t.clock,
      retentionMs: 45 * 24 * HOUR,
      onError: (err) => {
        throw err;
      },
      exclusive: (work) => t.deps.traffic.collector.exclusive(work),
    });
    await rebuild.start(nodeId);
    await reached;
    // Five more minutes of samples arrive and are collected meanwhile.
    for (let at = start + 61 * MIN; at <= start + 65 * MIN; at += MIN) {
      const n = ((at - start) / 1000) * 100;
      t.deps.traffic.collector.enqueue({
        nodeId,
        receivedAt: at,
        ifaces: [{ name: 'eth0', rx: n, tx: n }],
      });
    }
    const flushed = t.deps.traffic.collector.flush();
    await new Promise((r) => setImmediate(r));
    release();
    await flushed;
    await rebuild.settled();
    expect(rebuild.current().status).toBe('completed');
    const facts = await t.deps.store.traffic.facts(nodeId, 'eth0', 0, Date.UTC(2100, 0));
    expect(facts.reduce((n, f) => n + f.inBytes, 0)).toBe(65 * 60 * 100);
  });

  it('billing monthly: a cycle past retention without a snapshot comes from its accumulator', async () => {
    // Collected in Lite mode (no snapshots are stored then), then switched to Billing after
    // the counters and facts of September expired.
    await t.deps.trafficSettings.patch({ usage_mode: 'lite' });
    const sept = Date.UTC(2026, 8, 10);
    await feed(sept, sept + 6 * HOUR);
    const now = Date.UTC(2026, 10, 21, 12);
    await t.deps.traffic.maintain(now);
    await t.deps.trafficSettings.patch({ usage_mode: 'billing' });
    await at(now);
    const res = await get(
      `/api/statistics/traffic/monthly?server_id=${nodeId}&iface=eth0&months=3`,
    );
    const items = res.json<{ items: TrafficSummary[] }>().items;
    expect(items.map((i) => [i.cycle.start, i.stats.in_bytes, i.stats.status])).toEqual([
      ['2026-09-01T00:00:00Z', 6 * 3600 * 100, 'stale'],
    ]);
    expect(items[0]!.stats).toMatchObject({
      p95_status: 'snapshot_without_p95',
      selected_p95_bytes_per_sec: null,
    });
  });
});
