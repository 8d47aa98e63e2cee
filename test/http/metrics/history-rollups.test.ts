import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { adminHeaders } from '../../support/credentials.js';
import { agentReport } from '../../support/agent-payloads.js';
import { seedNode } from '../../support/seed-nodes.js';

/**
 * Aggregate ranges over rollups that lag behind: hours done as 1-hour buckets, the unfinished
 * hour from its 15-minute buckets, the last minutes from raw rows — read twice as the rollup job
 * moves on, so the second read goes through the cached rollup series.
 */

const MIN = 60_000;
const H = 60 * MIN;
let t: TestApp;
let node: { id: number; secret: string };
let start: number;
/** CPU usage of every accepted report, by receive time. */
const sent: Array<{ at: number; cpu: number }> = [];

async function reportMinutes(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const seq = sent.length;
    const body = agentReport({ seq });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/node/metrics',
      headers: { 'content-type': 'application/json', 'x-node-secret': node.secret },
      payload: JSON.stringify(body),
    });
    expect(res.statusCode).toBe(200);
    sent.push({ at: t.clock.now(), cpu: body.metrics.cpu.usage_ratio });
    t.clock.advance(MIN);
  }
}

/** avg and last of the reports in each step bucket, as the raw samples give them. */
function expected(stepMs: number): Map<number, { avg: number; last: number }> {
  const byBucket = new Map<number, number[]>();
  for (const s of sent) {
    const b = Math.floor(s.at / stepMs) * stepMs;
    byBucket.set(b, [...(byBucket.get(b) ?? []), s.cpu]);
  }
  const out = new Map<number, { avg: number; last: number }>();
  for (const [b, v] of byBucket) {
    out.set(b, { avg: v.reduce((x, y) => x + y, 0) / v.length, last: v[v.length - 1]! });
  }
  return out;
}

async function series(range: string, agg: 'avg' | 'last') {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/metrics/history?server_id=${node.id}&metric=cpu.usage_ratio&range=${range}&agg=${agg}`,
    // A fresh token: the fake clock moves hours ahead, past an access token's lifetime.
    headers: await adminHeaders(t),
  });
  expect(res.statusCode).toBe(200);
  return res
    .json<{ points: Array<{ ts: string; value: number }> }>()
    .points.map((p) => ({ ts: Date.parse(p.ts), value: p.value }));
}

async function expectMatchesRaw(range: string, stepMs: number): Promise<void> {
  const want = expected(stepMs);
  for (const agg of ['avg', 'last'] as const) {
    const got = await series(range, agg);
    expect(got.map((p) => p.ts)).toEqual([...want.keys()]);
    for (const p of got) expect(p.value).toBeCloseTo(want.get(p.ts)![agg], 9);
  }
}

beforeAll(async () => {
  t = await buildTestApp();
  node = await seedNode(t);
  start = t.clock.now();
  expect(start % H).toBe(0);
  await reportMinutes(165);
  // Closes every 15-minute bucket up to start + 2h30: 1-hour buckets up to start + 2h.
  expect(await t.deps.ingestBackend.rollup(t.clock.now())).toMatchObject({
    watermark15m: start + 2 * H + 30 * MIN,
    watermark1h: start + 2 * H,
  });
});
afterAll(async () => t.close());

describe('aggregate history ranges while rollups lag', () => {
  it('30d: finished hours, the unfinished hour and the newest minutes equal raw aggregation', async () => {
    await expectMatchesRaw('30d', H);
    const last = await series('30d', 'last');
    expect(last.at(-1)).toEqual({ ts: start + 2 * H, value: sent.at(-1)!.cpu });
  });

  it('1w and 15d: 15-minute buckets plus the raw tail equal raw aggregation', async () => {
    await expectMatchesRaw('1w', 15 * MIN);
    await expectMatchesRaw('15d', 30 * MIN);
  });

  it('take in buckets the rollup job materialised since the previous read', async () => {
    await reportMinutes(50);
    expect(await t.deps.ingestBackend.rollup(t.clock.now())).toMatchObject({
      watermark15m: start + 3 * H + 30 * MIN,
      watermark1h: start + 3 * H,
    });
    await expectMatchesRaw('30d', H);
    await expectMatchesRaw('1w', 15 * MIN);
    await expectMatchesRaw('15d', 30 * MIN);
  });
});
