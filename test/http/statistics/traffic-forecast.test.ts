import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { adminHeaders } from '../../support/credentials.js';
import { seedNode } from '../../support/seed-nodes.js';
import type { TrafficSummary } from '../../../src/domain/traffic/reads.js';

/** The summary's forecast from 5-minute facts, against figures worked out by hand. */

const FIVE = 300_000;
const DAY_S = 86_400;
const NOV1 = Date.UTC(2026, 10, 1);
/** Student's t, 0.95 quantile with 9 degrees of freedom (table). */
const T95_9 = 1.833113;

let t: TestApp;
let nodeId: number;

beforeEach(async () => {
  t = await buildTestApp();
  await t.deps.scheduler.stop();
  nodeId = (await seedNode(t)).id;
  await t.deps.trafficSettings.patch({ usage_mode: 'billing' });
});
afterEach(async () => t.close());

/** Samples every 5 minutes from 1 November for `days` days; day d sends rate(d) B/s. */
async function feed(days: number, rate: (d: number) => { in: number; out: number }) {
  let rx = 0;
  let tx = 0;
  for (let at = NOV1; at <= NOV1 + days * DAY_S * 1000; at += FIVE) {
    t.deps.traffic.collector.enqueue({
      nodeId,
      receivedAt: at,
      ifaces: [{ name: 'eth0', rx, tx }],
    });
    const r = rate(Math.floor((at - NOV1) / (DAY_S * 1000)));
    rx += r.in * 300;
    tx += r.out * 300;
  }
  await t.deps.traffic.collector.flush();
}
async function summary(at: number): Promise<TrafficSummary> {
  t.clock.set(at);
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/statistics/traffic/summary?server_id=${nodeId}&iface=eth0`,
    headers: await adminHeaders(t),
  });
  return res.json<TrafficSummary>();
}

describe('traffic forecast', () => {
  it('projects the end of the cycle from the complete days, with a t interval', async () => {
    await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/nodes/${nodeId}`,
      headers: { ...(await adminHeaders(t)), 'content-type': 'application/json' },
      payload: JSON.stringify({ traffic_p95_enabled: true }),
    });
    // Out: 1000, 2000, 3000, 1000, ... B/s by day; in half of that. 10 days seen, 20 left.
    const outRate = (d: number) => 1000 * (1 + (d % 3));
    await feed(10, (d) => ({ in: outRate(d) / 2, out: outRate(d) }));
    const s = await summary(NOV1 + 10 * DAY_S * 1000);
    const daily = Array.from({ length: 10 }, (_, d) => outRate(d) * DAY_S);
    const used = daily.reduce((a, b) => a + b, 0);
    const mean = used / 10;
    const s2 = daily.reduce((a, x) => a + (x - mean) ** 2, 0) / 9;
    const half = T95_9 * Math.sqrt(s2 * (20 + 400 / 10));
    expect(s.stats.selected_bytes).toBe(used);
    expect(s.forecast).toMatchObject({
      status: 'available',
      model: 'daily_mean',
      interval_level: 0.9,
      days_observed: 10,
      days_remaining: 20,
      projected_direction: 'out',
      daily_mean_bytes: Math.round(mean),
      daily_stddev_bytes: Math.round(Math.sqrt(s2)),
      projected_selected_bytes: Math.round(used + 20 * mean),
      observed_ratio: 1 / 3,
    });
    // The table's t has 7 digits: agree to a millionth of the half width.
    const near = (v: number | null, want: number) =>
      expect(Math.abs((v ?? 0) - want)).toBeLessThan(half * 1e-6 + 1);
    near(s.forecast!.projected_selected_bytes_low, used + 20 * mean - half);
    near(s.forecast!.projected_selected_bytes_high, used + 20 * mean + half);
    // P95 so far is 3000 B/s (a third of the buckets); the range holds it at this rank.
    expect(s.forecast).toMatchObject({
      projected_p95_bytes_per_sec: 3000,
      projected_p95_bytes_per_sec_low: 3000,
      projected_p95_bytes_per_sec_high: 3000,
    });
  });

  it('says there is too little data with fewer than three complete days', async () => {
    await feed(2, () => ({ in: 10, out: 20 }));
    const s = await summary(NOV1 + 2.5 * DAY_S * 1000);
    expect(s.forecast).toMatchObject({
      status: 'insufficient_data',
      reason: 'too_few_days',
      days_observed: 2,
      model: null,
      projected_selected_bytes: null,
      projected_selected_bytes_low: null,
      projected_selected_bytes_high: null,
    });
  });

  it('in max mode projects the larger direction', async () => {
    await t.deps.trafficSettings.patch({ direction_mode: 'max' });
    // In: days 0-3 at 100 B/s, then 1000; out steady 500. Eight days seen, 22 left.
    await feed(8, (d) => ({ in: d < 4 ? 100 : 1000, out: 500 }));
    const s = await summary(NOV1 + 8 * DAY_S * 1000);
    const usedIn = (4 * 100 + 4 * 1000) * DAY_S;
    expect(s.stats.selected_bytes_direction).toBe('in');
    expect(s.forecast?.projected_direction).toBe('in');
    expect(s.forecast?.projected_selected_bytes).toBe(Math.round(usedIn + (22 * usedIn) / 8));
  });

  it('treats days without any data as unknown, not as idle days', async () => {
    // Nothing at all yet: no projection.
    t.deps.traffic.collector.enqueue({
      nodeId,
      receivedAt: NOV1 - 3_600_000,
      ifaces: [{ name: 'eth0', rx: 0, tx: 0 }],
    });
    await t.deps.traffic.collector.flush();
    const empty = await summary(NOV1 + 5 * DAY_S * 1000);
    expect(empty.forecast).toMatchObject({ status: 'insufficient_data', days_observed: 0 });
  });

  it('projects the days the agent has been silent instead of counting them as zero', async () => {
    // Six days of data, then the agent went quiet two days ago: 24 days are still to come.
    await feed(6, () => ({ in: 10, out: 1000 }));
    const s = await summary(NOV1 + 8 * DAY_S * 1000);
    expect(s.forecast).toMatchObject({
      status: 'available',
      days_observed: 6,
      days_remaining: 24,
      projected_selected_bytes: 30 * DAY_S * 1000,
    });
  });
});
