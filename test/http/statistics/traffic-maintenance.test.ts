import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { adminHeaders } from '../../support/credentials.js';
import { seedNode } from '../../support/seed-nodes.js';
import type { TrafficSummary } from '../../../src/domain/traffic/reads.js';

const MIN = 60_000;
const DAY = 86_400_000;
let t: TestApp;
let admin: Record<string, string>;
let nodeId: number;

beforeEach(async () => {
  t = await buildTestApp();
  await t.deps.scheduler.stop();
  admin = await adminHeaders(t);
  nodeId = (await seedNode(t)).id;
});
afterEach(async () => t.close());

/** One sample a minute over [from, to), 100 B/s in each direction. */
async function feed(from: number, to: number) {
  for (let at = from; at < to; at += MIN) {
    const n = (at - from) / 1000;
    t.deps.traffic.collector.enqueue({
      nodeId,
      receivedAt: at,
      ifaces: [{ name: 'eth0', rx: n * 100, tx: n * 100 }],
    });
  }
  await t.deps.traffic.collector.flush();
}
const patchNode = (body: unknown) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/admin/nodes/${nodeId}`,
    headers: { ...admin, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
const summary = async () =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/api/statistics/traffic/summary?server_id=${nodeId}&iface=eth0`,
      headers: admin,
    })
  ).json<TrafficSummary>();

describe('traffic maintenance', () => {
  it('replays Lite accumulators from stored counters when the cycle changes', async () => {
    const now = Date.UTC(2026, 10, 21, 12);
    t.clock.set(now);
    admin = await adminHeaders(t);
    await feed(Date.UTC(2026, 10, 9), now);
    expect((await summary()).stats.in_bytes).toBe((now - Date.UTC(2026, 10, 9) - MIN) / 10);
    // A cycle starting on the 15th: only the part since 15 November counts now.
    expect(
      (
        await patchNode({
          traffic_cycle_mode: 'clamp_to_month_end',
          traffic_billing_start_day: 15,
          traffic_billing_timezone: 'UTC',
        })
      ).statusCode,
    ).toBe(204);
    const s = await summary();
    expect(s.cycle.start).toBe('2026-11-15T00:00:00Z');
    expect(s.stats.in_bytes).toBe((now - Date.UTC(2026, 10, 15) - MIN) / 10);
    expect(s.stats).toMatchObject({ gap_count: 0, reset_count: 0, data_complete: true });
  });

  it('stores sealed snapshots of closed cycles and prunes counters and facts past retention', async () => {
    await t.deps.trafficSettings.patch({ usage_mode: 'billing' });
    await feed(Date.UTC(2026, 9, 20), Date.UTC(2026, 9, 20, 6));
    const now = Date.UTC(2026, 9, 20) + 50 * DAY;
    await t.deps.traffic.maintain(Date.UTC(2026, 10, 3));
    const snaps = await t.deps.store.traffic.snapshots(nodeId, 'eth0');
    expect(snaps.map((r) => [r.cycleStart, r.sealed])).toEqual([[Date.UTC(2026, 9, 1), true]]);
    await t.deps.traffic.maintain(now);
    const count = async (table: string) =>
      (await t.sql.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))!.n;
    // Through the repository: SQLite stores counters by minute (0016), PostgreSQL a row each.
    expect(await t.deps.store.traffic.counters(nodeId, 0, now)).toEqual([]);
    expect(await count('traffic_5m')).toBe(0);
    // The October cycle stays readable from its snapshot, marked stale (no raw source left).
    t.clock.set(now);
    admin = await adminHeaders(t);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/statistics/traffic/monthly?server_id=${nodeId}&iface=eth0&months=3`,
      headers: admin,
    });
    const items = res.json<{ items: TrafficSummary[] }>().items;
    expect(items.map((i) => [i.cycle.start, i.stats.status, i.stats.in_bytes])).toEqual([
      ['2026-10-01T00:00:00Z', 'stale', (6 * 3600 - 60) * 100],
    ]);
  });
  it('re-seals a closed cycle whose end moved after its snapshot was stored', async () => {
    await t.deps.trafficSettings.patch({ usage_mode: 'billing' });
    await feed(Date.UTC(2026, 9, 20), Date.UTC(2026, 9, 20, 6));
    // A snapshot sealed under an earlier cycle definition: same start, another end.
    await t.deps.store.traffic.putSnapshot(nodeId, {
      iface: 'eth0',
      cycleStart: Date.UTC(2026, 9, 1),
      cycleEnd: Date.UTC(2026, 9, 25),
      statsJson: '{}',
      sealed: true,
    });
    await t.deps.traffic.maintain(Date.UTC(2026, 10, 3));
    const snaps = await t.deps.store.traffic.snapshots(nodeId, 'eth0');
    expect(snaps.map((r) => [r.cycleStart, r.cycleEnd])).toEqual([
      [Date.UTC(2026, 9, 1), Date.UTC(2026, 10, 1)],
    ]);
    expect(JSON.parse(snaps[0]!.statsJson)).not.toEqual({});
  });
});
