import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { adminHeaders } from '../../support/credentials.js';
import { agentReport } from '../../support/agent-payloads.js';
import { seedNode } from '../../support/seed-nodes.js';

/**
 * /api/metrics/online keeps its earlier contract and data source (spec §4.2, reference §4.4):
 * the rate counts the node's stored reports, whether or not the uptime job has finalised their
 * minutes, in buckets laid on the reference's grid (origin Monday 2000-01-03 00:00 UTC).
 */

const STEP_24H = 1_800_000;
const STEP_7D = 12_600_000;
const ORIGIN = Date.UTC(2000, 0, 3);

interface Series {
  step_sec: number;
  points: Array<{ ts: string; status: number; rate: number }>;
}

let t: TestApp;
let admin: Record<string, string>;
let node: { id: number; secret: string };

beforeEach(async () => {
  t = await buildTestApp();
  admin = await adminHeaders(t);
  node = await seedNode(t, { guestVisible: true });
});
afterEach(async () => t.close());

async function report(): Promise<void> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/node/metrics',
    headers: { 'content-type': 'application/json', 'x-node-secret': node.secret },
    payload: JSON.stringify(agentReport({ timestamp: new Date(t.clock.now()).toISOString() })),
  });
  expect(res.statusCode).toBe(200);
}

async function series(range: string): Promise<Series> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/metrics/online?server_id=${node.id}&range=${range}`,
    headers: admin,
  });
  expect(res.statusCode).toBe(200);
  return res.json<Series>();
}

const tsOf = (ms: number) => new Date(ms).toISOString().replace('.000', '');
const pointAt = (s: Series, ms: number) => s.points.find((p) => p.ts === tsOf(ms));

describe('GET /api/metrics/online data source', () => {
  it('lays 7d buckets on the reference grid (origin 2000-01-03), not on the epoch', async () => {
    const now = t.clock.now();
    const current = ORIGIN + Math.floor((now - ORIGIN) / STEP_7D) * STEP_7D;
    const s = await series('7d');
    expect(s.points).toHaveLength(48);
    expect(s.points[0]?.ts).toBe(tsOf(current - 48 * STEP_7D));
    expect(s.points.at(-1)?.ts).toBe(tsOf(current - STEP_7D));
    // 24h buckets are the same on both grids.
    const day = await series('24h');
    const current24 = Math.floor(now / STEP_24H) * STEP_24H;
    expect(day.points.at(-1)?.ts).toBe(tsOf(current24 - STEP_24H));
  });

  it('counts stored reports of minutes the uptime job never finalised', async () => {
    // Clock starts at 12:00:00Z: 40 reports, 3 s apart, in the 12:00–12:30 bucket, and the
    // uptime job has not run at all.
    for (let i = 0; i < 40; i++) {
      await report();
      t.clock.advance(3_000);
    }
    t.clock.set(Date.UTC(2026, 10, 21, 12, 30, 1));
    const s = await series('24h');
    const bucket = pointAt(s, Date.UTC(2026, 10, 21, 12, 0));
    expect(bucket).toEqual({ ts: tsOf(Date.UTC(2026, 10, 21, 12, 0)), status: 2, rate: 40 / 600 });
  });

  it('adds finalised and unfinalised minutes of one bucket without counting a report twice', async () => {
    // 20 reports in 12:00–12:01, finalised by the uptime job; 25 more in 12:05–12:06 after the
    // job stopped (say Dash was stopped before their minutes were finalised).
    for (let i = 0; i < 20; i++) {
      await report();
      t.clock.advance(3_000);
    }
    t.clock.set(Date.UTC(2026, 10, 21, 12, 2, 7));
    expect(await t.deps.uptime.finalise()).toBeGreaterThan(0);
    t.clock.set(Date.UTC(2026, 10, 21, 12, 5, 0));
    for (let i = 0; i < 25; i++) {
      await report();
      t.clock.advance(2_000);
    }
    t.clock.set(Date.UTC(2026, 10, 21, 12, 30, 1));
    const s = await series('24h');
    expect(pointAt(s, Date.UTC(2026, 10, 21, 12, 0))?.rate).toBe(45 / 600);
    // Finalising the rest afterwards changes nothing.
    t.clock.set(Date.UTC(2026, 10, 21, 12, 31, 7));
    await t.deps.uptime.finalise();
    expect(pointAt(await series('24h'), Date.UTC(2026, 10, 21, 12, 0))?.rate).toBe(45 / 600);
  });

  it('expects one report per 3 s when the node reports no interval (interval 0)', async () => {
    await t.sql.run('UPDATE nodes SET interval_sec = 0 WHERE id = ?', node.id);
    for (let i = 0; i < 6; i++) {
      await report();
      t.clock.advance(3_000);
    }
    t.clock.set(Date.UTC(2026, 10, 21, 12, 30, 1));
    expect(pointAt(await series('24h'), Date.UTC(2026, 10, 21, 12, 0))?.rate).toBe(6 / 600);
  });
});
