import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { adminHeaders } from '../../support/credentials.js';
import { insertNode } from '../../support/seed.js';

let t: TestApp;
let admin: Record<string, string>;
let visible: number;
let hidden: number;
const STEP = 1_800_000;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminHeaders(t);
  visible = await insertNode(t.sql, { guestVisible: true });
  hidden = await insertNode(t.sql);
  // Clock starts at 12:00:00Z: bucket 11:30–12:00 gets 600 reports (full), 11:00–11:30 gets 596.
  const now = t.clock.now();
  const rows = [];
  for (let m = 0; m < 60; m++) {
    const minute = now - 3_600_000 + m * 60_000;
    rows.push({
      nodeId: visible,
      minute,
      onlineMs: 60_000,
      observedMs: 60_000,
      reports: m === 0 ? 16 : 20,
      hourStart: now - 3_600_000,
      day: '2026-11-21',
    });
  }
  await t.deps.store.uptime.saveMinutes(rows);
  t.clock.advance(1000);
});
afterAll(async () => t.close());

const get = (q: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: `/api/metrics/online?${q}`, headers });

describe('GET /api/metrics/online', () => {
  it('returns 48 completed 30-minute buckets with rates and statuses', async () => {
    const res = await get(`server_id=${visible}&range=24h`);
    expect(res.statusCode).toBe(200);
    const body = res.json<{
      server_id: number;
      range: string;
      step_sec: number;
      points: Array<{ ts: string; status: number; rate: number }>;
    }>();
    expect(body).toMatchObject({ server_id: visible, range: '24h', step_sec: 1800 });
    expect(body.points).toHaveLength(48);
    const start = Date.UTC(2026, 10, 21, 12, 0, 0);
    expect(body.points.at(-1)).toEqual({
      ts: new Date(start - STEP).toISOString().replace('.000', ''),
      status: 0,
      rate: 1,
    });
    expect(body.points.at(-2)).toEqual({
      ts: new Date(start - 2 * STEP).toISOString().replace('.000', ''),
      status: 1,
      rate: 596 / 600,
    });
    expect(body.points[0]).toMatchObject({ status: 2, rate: 0 });
  });

  it('accepts 7d and its 7days alias with 210-minute steps', async () => {
    for (const range of ['7d', '7days']) {
      const body = (await get(`server_id=${visible}&range=${range}`)).json<{
        range: string;
        step_sec: number;
        points: unknown[];
      }>();
      expect(body).toMatchObject({ range: '7d', step_sec: 12_600 });
      expect(body.points).toHaveLength(48);
    }
  });

  it.each([
    'range=24h',
    `server_id=x&range=24h`,
    `server_id=0&range=24h`,
    'server_id=1',
    'server_id=1&range=1y',
  ])('answers %s with 400 invalid_request', async (q) => {
    const res = await get(q, admin);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_request' });
  });

  it('answers 403 to guests for hidden nodes and 404 for unknown ones', async () => {
    expect((await get(`server_id=${hidden}&range=24h`)).statusCode).toBe(403);
    expect((await get(`server_id=${hidden}&range=24h`, admin)).statusCode).toBe(200);
    expect((await get(`server_id=424242&range=24h`, admin)).statusCode).toBe(404);
  });
});
