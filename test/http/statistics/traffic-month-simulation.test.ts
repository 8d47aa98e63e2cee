import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { adminHeaders } from '../../support/credentials.js';
import { seedNode } from '../../support/seed-nodes.js';
import type { DailyItem, TrafficSummary } from '../../../src/domain/traffic/reads.js';

/**
 * "Done when" of issue 14: a simulated month of counters with reboots, gaps, a counter reset,
 * a DST change, a cycle starting on the 31st and a renamed interface. The expectations are
 * computed here from the traffic model itself (true per-bucket rates and the scenario's
 * events), not from counters or from Dash's code.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const BUCKET = 5 * MIN;
// clamp_to_month_end with start day 31 in New York: the cycle starts on 31 October (EDT)
// and ends on 30 November (EST); DST ends on 1 November inside it.
const S = Date.parse('2026-10-31T04:00:00Z');
const E = Date.parse('2026-11-30T05:00:00Z');
const RENAME = S + 15 * DAY;

/** Deterministic true rates (bytes/s), constant over each 5-minute bucket. */
function rates(bucket: number): { in: number; out: number } {
  let x = Math.floor(bucket / BUCKET) * 2654435761;
  x = (x ^ (x >>> 13)) >>> 0;
  const a = 1000 + (x % 90_000);
  const b = 500 + (Math.floor(x / 90_000) % 150_000);
  return { in: a, out: b };
}
const bucketOf = (t: number) => Math.floor(t / BUCKET) * BUCKET;

interface Plan {
  name: string;
  from: number;
  to: number;
  /** Sample-free spans [a, b) (a and b are samples); counters keep counting. */
  gaps: Array<[number, number]>;
  /** Reboots: no samples in (a, b), and the counters start again from zero at b. */
  reboots: Array<[number, number]>;
  /** Counter resets without a gap: the sample at t reads from zero again. */
  resets: number[];
}

const PLANS: Plan[] = [
  {
    name: 'eth0',
    from: S + DAY,
    to: RENAME - MIN,
    gaps: [[S + 3 * DAY + 2 * HOUR, S + 3 * DAY + 4 * HOUR]],
    reboots: [[S + 5 * DAY + HOUR, S + 5 * DAY + HOUR + 10 * MIN]],
    resets: [],
  },
  {
    name: 'ens3',
    from: RENAME,
    to: E - HOUR,
    gaps: [[S + 22 * DAY, S + 22 * DAY + 35 * MIN]],
    reboots: [],
    resets: [S + 20 * DAY + 7 * HOUR],
  },
];

interface Sample {
  at: number;
  rx: number;
  tx: number;
}

/** Samples every minute, with the plan's events; counters integrate the true rates. */
function samples(p: Plan): Sample[] {
  const out: Sample[] = [];
  let rx = 7_000_000;
  let tx = 3_000_000;
  const inGap = (t: number) => [...p.gaps, ...p.reboots].some(([a, b]) => t > a && t < b);
  for (let t = p.from; t <= p.to; t += MIN) {
    if (t > p.from) {
      const r = rates(t - MIN);
      rx += r.in * 60;
      tx += r.out * 60;
    }
    if (p.reboots.some(([, b]) => b === t) || p.resets.includes(t)) {
      rx = 0;
      tx = 0;
    }
    if (!inGap(t)) out.push({ at: t, rx, tx });
  }
  return out;
}

/** What the reference's rules give for this plan, from the model. */
function expected(p: Plan) {
  const isReset = (b: number) => p.resets.includes(b) || p.reboots.some(([, e]) => e === b);
  // Pairs (a, b) of consecutive samples, from the plan.
  const times: number[] = [];
  for (let t = p.from; t <= p.to; t += MIN) {
    if (![...p.gaps, ...p.reboots].some(([a, b]) => t > a && t < b)) times.push(t);
  }
  let inBytes = 0;
  let outBytes = 0;
  let gaps = 0;
  let resets = 0;
  const normalMinute = new Set<number>();
  const resetBuckets = new Set<number>();
  for (let i = 1; i < times.length; i++) {
    const a = times[i - 1] as number;
    const b = times[i] as number;
    if (isReset(b)) {
      resets++;
      resetBuckets.add(bucketOf(b));
      continue;
    }
    for (let m = a; m < b; m += MIN) {
      inBytes += rates(m).in * 60;
      outBytes += rates(m).out * 60;
    }
    if (b - a > BUCKET) gaps++;
    else normalMinute.add(a);
  }
  const valid: Array<{ in: number; out: number }> = [];
  for (let bk = bucketOf(p.from); bk < p.to; bk += BUCKET) {
    let full = !resetBuckets.has(bk);
    for (let m = bk; m < bk + BUCKET && full; m += MIN) full = normalMinute.has(m);
    if (full) valid.push(rates(bk));
  }
  const p95 = (xs: number[]) => {
    const s = [...xs].sort((x, y) => y - x);
    return s[Math.floor(s.length * 0.05)];
  };
  const effStart = bucketOf(p.from);
  const expectedSamples = Math.ceil((E - effStart) / BUCKET);
  return {
    inBytes,
    outBytes,
    gaps,
    resets,
    sampleCount: valid.length,
    expectedSamples,
    coverage: valid.length / expectedSamples,
    p95In: p95(valid.map((v) => v.in)),
    p95Out: p95(valid.map((v) => v.out)),
    p95Total: p95(valid.map((v) => v.in + v.out)),
    peakIn: Math.max(...valid.map((v) => v.in)),
    peakOut: Math.max(...valid.map((v) => v.out)),
  };
}

let t: TestApp;
let admin: Record<string, string>;
let nodeId: number;
beforeAll(async () => {
  t = await buildTestApp();
  await t.deps.scheduler.stop();
  admin = await adminHeaders(t);
  nodeId = (await seedNode(t, { name: 'billed' })).id;
  const patch = await t.app.inject({
    method: 'PATCH',
    url: `/api/admin/nodes/${nodeId}`,
    headers: { ...admin, 'content-type': 'application/json' },
    payload: JSON.stringify({
      traffic_cycle_mode: 'clamp_to_month_end',
      traffic_billing_start_day: 31,
      traffic_billing_timezone: 'America/New_York',
      traffic_p95_enabled: true,
      traffic_direction_mode: 'both',
    }),
  });
  expect(patch.statusCode).toBe(204);
  // Reports arrive in time order across both interfaces, flushed in batches as the job would.
  const all = PLANS.flatMap((p) => samples(p).map((s) => ({ ...s, name: p.name })));
  all.sort((a, b) => a.at - b.at);
  for (let i = 0; i < all.length; i++) {
    const s = all[i] as Sample & { name: string };
    t.deps.traffic.collector.enqueue({
      nodeId,
      receivedAt: s.at,
      ifaces: [{ name: s.name, rx: s.rx, tx: s.tx }],
    });
    if (i % 5000 === 0) await t.deps.traffic.collector.flush();
  }
  await t.deps.traffic.collector.flush();
  t.clock.set(E + 3 * HOUR);
  admin = await adminHeaders(t);
});
afterAll(async () => t.close());

async function read<T>(path: string): Promise<T> {
  const res = await t.app.inject({ method: 'GET', url: path, headers: admin });
  expect(res.statusCode, path).toBe(200);
  return res.json<T>();
}
const settings = (usage_mode: string) =>
  t.app.inject({
    method: 'PATCH',
    url: '/api/statistics/traffic/settings',
    headers: { ...admin, 'content-type': 'application/json' },
    payload: JSON.stringify({ usage_mode }),
  });

describe('a simulated month of counters', () => {
  it.each(PLANS.map((p) => [p.name, p] as const))(
    'Billing figures of %s equal the independent calculation',
    async (name, plan) => {
      await settings('billing');
      const want = expected(plan);
      const body = await read<{ items: TrafficSummary[] }>(
        `/api/statistics/traffic/monthly?server_id=${nodeId}&iface=${name}&period=previous&months=1`,
      );
      expect(body.items).toHaveLength(1);
      const item = body.items[0] as TrafficSummary;
      expect(item.cycle).toMatchObject({
        mode: 'clamp_to_month_end',
        billing_start_day: 31,
        timezone: 'America/New_York',
        start: '2026-10-31T04:00:00Z',
        end: '2026-11-30T05:00:00Z',
      });
      expect(item.stats).toMatchObject({
        in_bytes: want.inBytes,
        out_bytes: want.outBytes,
        selected_bytes: want.inBytes + want.outBytes,
        selected_bytes_direction: 'total',
        gap_count: want.gaps,
        reset_count: want.resets,
        sample_count: want.sampleCount,
        expected_sample_count: want.expectedSamples,
        p95_status: 'available',
        in_peak_bytes_per_sec: want.peakIn,
        out_peak_bytes_per_sec: want.peakOut,
        cycle_complete: true,
        data_complete: false,
        status: 'grace',
      });
      expect(item.stats.coverage_ratio).toBeCloseTo(want.coverage, 12);
      expect(item.stats.in_p95_bytes_per_sec).toBeCloseTo(want.p95In as number, 6);
      expect(item.stats.out_p95_bytes_per_sec).toBeCloseTo(want.p95Out as number, 6);
      expect(item.stats.selected_p95_bytes_per_sec).toBeCloseTo(want.p95Total as number, 6);
    },
  );

  it('Lite accumulators agree on bytes, gaps and resets', async () => {
    await settings('lite');
    for (const plan of PLANS) {
      const want = expected(plan);
      const body = await read<{ items: TrafficSummary[] }>(
        `/api/statistics/traffic/monthly?server_id=${nodeId}&iface=${plan.name}&period=previous&months=1`,
      );
      expect(body.items[0]?.stats).toMatchObject({
        in_bytes: want.inBytes,
        out_bytes: want.outBytes,
        gap_count: want.gaps,
        reset_count: want.resets,
        p95_status: 'lite_mode',
        coverage_ratio: 0,
        data_complete: false,
      });
    }
  });

  it('daily splits the cycle by New York days, with a 25-hour DST day', async () => {
    await settings('billing');
    const { items } = await read<{ items: DailyItem[] }>(
      `/api/statistics/traffic/daily?server_id=${nodeId}&iface=eth0&period=previous`,
    );
    const dst = items.find((d) => d.start === '2026-11-01T04:00:00Z');
    expect(dst?.end).toBe('2026-11-02T05:00:00Z');
    expect(dst?.stats.expected_sample_count).toBe(300);
    const want = expected(PLANS[0] as Plan);
    expect(items.reduce((n, d) => n + d.stats.in_bytes, 0)).toBe(want.inBytes);
    expect(items[0]?.start).toBe('2026-11-01T04:00:00Z');
  });
});
