import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { adminHeaders } from '../../support/credentials.js';
import { seedNode } from '../../support/seed-nodes.js';
import type { DailyItem, TrafficSummary } from '../../../src/domain/traffic/reads.js';
import type { TrafficAdjustment } from '../../../src/protocol/traffic.js';

/**
 * Calibration: bills recorded for closed cycles give adjusted figures beside the raw ones
 * (the billed cycle, its days, and later cycles as estimates); revoking keeps the record and
 * the figures return to raw.
 */

const FIVE = 300_000;
const FROM = Date.UTC(2026, 9, 21);
const NOW = Date.UTC(2026, 10, 11);
// Steady 500 B/s in and 1000 B/s out; October has 11 days of it, November 10 so far.
const OCT_OUT = 11 * 86_400 * 1000;
const OCT_IN = 11 * 86_400 * 500;
const NOV_OUT = 10 * 86_400 * 1000;
const BILLED = Math.round(OCT_OUT * 1.1);

let t: TestApp;
let admin: Record<string, string>;
let nodeId: number;
let otherId: number;

beforeAll(async () => {
  t = await buildTestApp();
  await t.deps.scheduler.stop();
  nodeId = (await seedNode(t, { name: 'edge-1' })).id;
  otherId = (await seedNode(t, { name: 'edge-2' })).id;
  await t.deps.trafficSettings.patch({ usage_mode: 'billing' });
  for (let at = FROM; at <= NOW; at += FIVE) {
    const s = (at - FROM) / 1000;
    t.deps.traffic.collector.enqueue({
      nodeId,
      receivedAt: at,
      ifaces: [{ name: 'eth0', rx: s * 500, tx: s * 1000 }],
    });
  }
  await t.deps.traffic.collector.flush();
  t.clock.set(NOW);
  admin = await adminHeaders(t);
});
afterAll(async () => t.close());

const base = (id = nodeId) => `/api/admin/nodes/${id}/traffic/adjustments`;
const post = (url: string, body?: unknown, headers = admin) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: body === undefined ? '{}' : typeof body === 'string' ? body : JSON.stringify(body),
  });
const get = async <T>(url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: admin });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json<T>();
};
const q = () => `server_id=${nodeId}&iface=eth0`;
const monthly = () =>
  get<{ items: TrafficSummary[] }>(`/api/statistics/traffic/monthly?${q()}&months=2`);
const bill = {
  iface: 'eth0',
  cycle_start: '2026-10-01T00:00:00Z',
  direction: 'out',
  billed_bytes: BILLED,
  note: 'invoice 2026-10',
};

describe('traffic calibration', () => {
  let first: TrafficAdjustment;

  it('records a bill for a closed cycle with Dash’s raw figure beside it', async () => {
    const res = await post(base(), bill);
    expect(res.statusCode, res.body).toBe(201);
    first = res.json<TrafficAdjustment>();
    expect(first).toEqual({
      id: first.id,
      server_id: nodeId,
      iface: 'eth0',
      cycle_start: '2026-10-01T00:00:00Z',
      cycle_end: '2026-11-01T00:00:00Z',
      direction: 'out',
      billed_bytes: BILLED,
      raw_bytes: OCT_OUT,
      note: 'invoice 2026-10',
      created_at: '2026-11-11T00:00:00Z',
      status: 'active',
      revoked_at: null,
      superseded_by: null,
      matches_cycle: true,
    });
    expect((await get<{ items: TrafficAdjustment[] }>(base())).items).toEqual([first]);
  });

  it('shows the billed cycle adjusted to the bill and the raw figures unchanged', async () => {
    const [nov, oct] = (await monthly()).items;
    expect(oct?.stats).toMatchObject({
      out_bytes: OCT_OUT,
      in_bytes: OCT_IN,
      selected_bytes: OCT_OUT,
      adjusted_out_bytes: BILLED,
      adjusted_in_bytes: Math.round(OCT_IN * 1.1),
      adjusted_selected_bytes: BILLED,
      calibration: {
        adjustment_id: first.id,
        basis: 'bill',
        source_cycle_start: '2026-10-01T00:00:00Z',
        source_cycle_end: '2026-11-01T00:00:00Z',
        direction: 'out',
        billed_bytes: BILLED,
      },
    });
    expect(oct?.stats.calibration?.ratio).toBeCloseTo(1.1, 12);
    // The current cycle has no bill yet: an estimate from October's ratio.
    expect(nov?.stats).toMatchObject({
      selected_bytes: NOV_OUT,
      adjusted_selected_bytes: Math.round(NOV_OUT * 1.1),
      calibration: { basis: 'estimate', adjustment_id: first.id },
    });
  });

  it('estimates the current cycle and its forecast with the latest bill’s ratio', async () => {
    const s = await get<TrafficSummary>(`/api/statistics/traffic/summary?${q()}`);
    expect(s.stats.adjusted_selected_bytes).toBe(Math.round(NOV_OUT * 1.1));
    expect(s.stats.calibration?.basis).toBe('estimate');
    const f = s.forecast!;
    expect(f.status).toBe('available');
    expect(f.projected_selected_bytes).toBe(30 * 86_400 * 1000);
    expect(f.adjusted_projected_selected_bytes).toBe(Math.round(30 * 86_400 * 1000 * 1.1));
  });

  it('gives each day of the billed cycle its share and days of the current one an estimate', async () => {
    const prev = await get<{ items: DailyItem[] }>(
      `/api/statistics/traffic/daily?${q()}&period=previous`,
    );
    expect(prev.items).toHaveLength(11);
    expect(new Set(prev.items.map((d) => d.stats.calibration?.basis))).toEqual(
      new Set(['bill_share']),
    );
    const sum = prev.items.reduce((n, d) => n + (d.stats.adjusted_out_bytes ?? 0), 0);
    expect(Math.abs(sum - BILLED)).toBeLessThanOrEqual(prev.items.length);
    const cur = await get<{ items: DailyItem[] }>(`/api/statistics/traffic/daily?${q()}`);
    expect(cur.items[0]?.stats.calibration?.basis).toBe('estimate');
  });

  it('lets a newer bill for the same cycle supersede the older one (both kept)', async () => {
    const res = await post(base(), { ...bill, direction: 'total', billed_bytes: 1_500_000_000 });
    expect(res.statusCode).toBe(201);
    const second = res.json<TrafficAdjustment>();
    const list = (await get<{ items: TrafficAdjustment[] }>(`${base()}?iface=eth0`)).items;
    expect(list.map((a) => [a.id, a.status, a.superseded_by])).toEqual([
      [second.id, 'active', null],
      [first.id, 'superseded', second.id],
    ]);
    expect(list[1]?.revoked_at).toBe('2026-11-11T00:00:00Z');
    // A total bill: in and out split it in their raw proportion and add up to it exactly.
    const oct = (await monthly()).items[1]!.stats;
    expect(oct.adjusted_in_bytes! + oct.adjusted_out_bytes!).toBe(1_500_000_000);
    expect(oct.adjusted_in_bytes).toBe(500_000_000);
    expect(oct.adjusted_selected_bytes).toBe(1_000_000_000);
    first = second;
  });

  it('revokes: figures return to raw, the record stays, a second revoke is refused', async () => {
    const url = `${base()}/${first.id}/revoke`;
    const res = await post(url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: first.id, status: 'revoked', superseded_by: null });
    for (const item of (await monthly()).items) {
      expect(item.stats).not.toHaveProperty('adjusted_selected_bytes');
      expect(item.stats).not.toHaveProperty('calibration');
    }
    const s = await get<TrafficSummary>(`/api/statistics/traffic/summary?${q()}`);
    expect(s.forecast).not.toHaveProperty('adjusted_projected_selected_bytes');
    const again = await post(url);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'traffic_adjustment_revoked' });
    expect((await get<{ items: unknown[] }>(base())).items).toHaveLength(2);
  });

  it('works from the Lite accumulators as well', async () => {
    await t.deps.trafficSettings.patch({ usage_mode: 'lite' });
    const res = await post(base(), bill);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ raw_bytes: OCT_OUT });
    const s = await get<TrafficSummary>(`/api/statistics/traffic/summary?${q()}`);
    expect(s.usage_mode).toBe('lite');
    expect(s.stats.calibration?.basis).toBe('estimate');
    expect(s.stats.adjusted_selected_bytes).toBe(Math.round(s.stats.selected_bytes * 1.1));
    await t.deps.trafficSettings.patch({ usage_mode: 'billing' });
  });

  it('flags records whose cycle no longer exists after a cycle change', async () => {
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/nodes/${nodeId}`,
      headers: { ...admin, 'content-type': 'application/json' },
      payload: JSON.stringify({
        traffic_cycle_mode: 'clamp_to_month_end',
        traffic_billing_start_day: 15,
        traffic_billing_timezone: 'UTC',
      }),
    });
    expect(patch.statusCode).toBe(204);
    const list = (await get<{ items: TrafficAdjustment[] }>(base())).items;
    expect(list.every((a) => !a.matches_cycle)).toBe(true);
    // 15 October – 15 November is the current cycle now. October's bill overlaps it, so it is
    // no bill of an earlier cycle either: nothing applies.
    const s = await get<TrafficSummary>(`/api/statistics/traffic/summary?${q()}`);
    expect(s.cycle.start).toBe('2026-10-15T00:00:00Z');
    expect(s.stats).not.toHaveProperty('calibration');
    const restore = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/nodes/${nodeId}`,
      headers: { ...admin, 'content-type': 'application/json' },
      payload: JSON.stringify({
        traffic_cycle_mode: 'calendar_month',
        traffic_billing_timezone: '',
      }),
    });
    expect(restore.statusCode).toBe(204);
  });
});

describe('traffic calibration errors', () => {
  const cases: Array<[string, unknown, number, string]> = [
    ['a non-object body', '[1]', 400, 'invalid_fields'],
    ['an unknown field', { ...bill, ratio: 2 }, 400, 'invalid_fields'],
    ['no iface', { ...bill, iface: undefined }, 400, 'invalid_traffic_adjustment_iface'],
    ['iface "all"', { ...bill, iface: 'ALL' }, 400, 'invalid_traffic_adjustment_iface'],
    ['a long iface', { ...bill, iface: 'x'.repeat(65) }, 400, 'invalid_traffic_adjustment_iface'],
    ['no cycle', { ...bill, cycle_start: undefined }, 400, 'invalid_traffic_adjustment_cycle'],
    [
      'a date only',
      { ...bill, cycle_start: '2026-10-01' },
      400,
      'invalid_traffic_adjustment_cycle',
    ],
    [
      'a time inside a cycle',
      { ...bill, cycle_start: '2026-10-02T00:00:00Z' },
      400,
      'invalid_traffic_adjustment_cycle',
    ],
    [
      'no direction',
      { ...bill, direction: undefined },
      400,
      'invalid_traffic_adjustment_direction',
    ],
    ['direction max', { ...bill, direction: 'max' }, 400, 'invalid_traffic_adjustment_direction'],
    ['zero bytes', { ...bill, billed_bytes: 0 }, 400, 'invalid_traffic_adjustment_bytes'],
    ['negative bytes', { ...bill, billed_bytes: -5 }, 400, 'invalid_traffic_adjustment_bytes'],
    ['fractional bytes', { ...bill, billed_bytes: 1.5 }, 400, 'invalid_traffic_adjustment_bytes'],
    ['bytes as text', { ...bill, billed_bytes: '100' }, 400, 'invalid_traffic_adjustment_bytes'],
    ['unsafe bytes', { ...bill, billed_bytes: 2 ** 53 }, 400, 'invalid_traffic_adjustment_bytes'],
    ['a long note', { ...bill, note: 'n'.repeat(256) }, 400, 'invalid_traffic_adjustment_note'],
    ['a control character', { ...bill, note: 'a\u0007b' }, 400, 'invalid_traffic_adjustment_note'],
    ['a note that is no text', { ...bill, note: 5 }, 400, 'invalid_traffic_adjustment_note'],
    [
      'the current cycle',
      { ...bill, cycle_start: '2026-11-01T00:00:00Z' },
      409,
      'traffic_adjustment_cycle_open',
    ],
    [
      'a cycle without traffic',
      { ...bill, cycle_start: '2026-09-01T00:00:00Z' },
      409,
      'traffic_adjustment_no_data',
    ],
    ['an interface never seen', { ...bill, iface: 'wg0' }, 409, 'traffic_adjustment_no_data'],
  ];
  for (const [name, body, status, code] of cases) {
    it(`answers ${status} ${code} for ${name}`, async () => {
      const res = await post(base(), body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toMatchObject({ code });
    });
  }

  it('answers 404 for an absent node or another node’s record, 400 for a bad id', async () => {
    expect((await post(base(9999), bill)).json()).toMatchObject({ code: 'not_found' });
    const mine = (await get<{ items: TrafficAdjustment[] }>(base())).items[0]!;
    const other = await post(`${base(otherId)}/${mine.id}/revoke`);
    expect(other.statusCode).toBe(404);
    const bad = await post(`${base()}/x/revoke`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'invalid_id' });
    const list = await t.app.inject({ method: 'GET', url: `${base()}?iface=`, headers: admin });
    expect(list.json()).toMatchObject({ code: 'invalid_traffic_adjustment_iface' });
  });

  it('is for admins only', async () => {
    const res = await post(base(), bill, {});
    expect(res.statusCode).toBe(401);
    const list = await t.app.inject({ method: 'GET', url: base() });
    expect(list.statusCode).toBe(401);
  });
});
