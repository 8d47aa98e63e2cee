import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { adminHeaders } from '../../support/credentials.js';
import { seedNode } from '../../support/seed-nodes.js';
import { agentReport } from '../../support/agent-payloads.js';
import type { DailyItem, TrafficSummary } from '../../../src/domain/traffic/reads.js';

let t: TestApp;
let admin: Record<string, string>;
let node: { id: number; secret: string };
const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

beforeEach(async () => {
  t = await buildTestApp();
  admin = await adminHeaders(t);
  node = await seedNode(t, { name: 'web-01' });
});
afterEach(async () => t.close());

const get = async (url: string, headers: Record<string, string> = admin) => {
  const res = await t.app.inject({ method: 'GET', url, headers });
  // Response bodies are checked field by field below.
  return { statusCode: res.statusCode, json: () => res.json<Body>() };
};
type Body = TrafficSummary & {
  code: string;
  includes_current: boolean;
  items: Array<TrafficSummary & DailyItem>;
};
const send = (method: 'PATCH' | 'POST', url: string, body?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: { ...admin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
/** Moves the fake clock and signs in again (access tokens live 15 minutes). */
async function moveTo(ms: number) {
  t.clock.set(ms);
  admin = await adminHeaders(t);
}
const settings = (body: Record<string, string>) =>
  send('PATCH', '/api/statistics/traffic/settings', body);

/** Steady traffic: every 60 s, `inRate`/`outRate` bytes per second, from T0 for `minutes`. */
async function feedSteady(
  nodeId: number,
  iface: string,
  minutes: number,
  inRate: number,
  outRate: number,
) {
  for (let i = 0; i <= minutes; i++) {
    t.deps.traffic.collector.enqueue({
      nodeId,
      receivedAt: T0 + i * 60_000,
      ifaces: [{ name: iface, rx: 1000 + i * 60 * inRate, tx: 5000 + i * 60 * outRate }],
    });
  }
  await t.deps.traffic.collector.flush();
}

describe('traffic reads', () => {
  it('collects counters from accepted reports and lists interfaces', async () => {
    for (let seq = 0; seq < 3; seq++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/node/metrics',
        headers: { 'content-type': 'application/json', 'x-node-secret': node.secret },
        payload: JSON.stringify(agentReport({ seq })),
      });
      expect(res.statusCode).toBe(200);
      t.clock.advance(3000);
    }
    await t.deps.scheduler.stop();
    await t.deps.traffic.collector.flush();
    const ifaces = await get(`/api/statistics/traffic/ifaces?server_id=${node.id}`);
    expect(ifaces.statusCode).toBe(200);
    expect(ifaces.json()).toEqual([{ name: 'docker0' }, { name: 'eth0' }, { name: 'eth1' }]);
    const sum = await get(`/api/statistics/traffic/summary?server_id=${node.id}&iface=eth0`);
    expect(sum.statusCode).toBe(200);
    // Lite mode by default: two pairs of 3 s at 125000 B/s in and 48000 B/s out.
    expect(sum.json()).toMatchObject({
      server_id: node.id,
      server_name: 'web-01',
      iface: 'eth0',
      usage_mode: 'lite',
      direction_mode: 'out',
      stats: {
        in_bytes: 2 * 3 * 125_000,
        out_bytes: 2 * 3 * 48_000,
        selected_bytes: 2 * 3 * 48_000,
        selected_bytes_direction: 'out',
        p95_status: 'lite_mode',
        in_p95_bytes_per_sec: null,
        sample_count: 2,
        expected_sample_count: 0,
        gap_count: 0,
        reset_count: 0,
        status: 'provisional',
      },
    });
    expect(sum.json().stats).not.toHaveProperty('partial');
  });

  it('orders interfaces by latest sample, historical ones stay listed', async () => {
    t.deps.traffic.collector.enqueue({
      nodeId: node.id,
      receivedAt: T0,
      ifaces: [
        { name: 'old0', rx: 1, tx: 1 },
        { name: 'eth0', rx: 1, tx: 1 },
      ],
    });
    t.deps.traffic.collector.enqueue({
      nodeId: node.id,
      receivedAt: T0 + 3000,
      ifaces: [
        { name: 'eth1', rx: 1, tx: 1 },
        { name: 'eth0', rx: 2, tx: 2 },
      ],
    });
    await t.deps.traffic.collector.flush();
    const res = await get(`/api/statistics/traffic/ifaces?server_id=${node.id}`);
    expect(res.json()).toEqual([{ name: 'eth0' }, { name: 'eth1' }, { name: 'old0' }]);
  });

  it('billing: totals, P95, peaks, coverage and every direction mode', async () => {
    expect((await settings({ usage_mode: 'billing' })).statusCode).toBe(204);
    await feedSteady(node.id, 'eth0', 120, 1000, 3000);
    await send('PATCH', `/api/admin/nodes/${node.id}`, { traffic_p95_enabled: true });
    await moveTo(T0 + 120 * 60_000);
    const url = `/api/statistics/traffic/summary?server_id=${node.id}&iface=eth0`;
    const body = (await get(url)).json();
    expect(body.usage_mode).toBe('billing');
    expect(body.cycle).toMatchObject({
      mode: 'calendar_month',
      billing_start_day: 1,
      timezone: 'UTC',
      start: '2026-11-01T00:00:00Z',
      end: '2026-12-01T00:00:00Z',
    });
    expect(body.cycle).not.toHaveProperty('billing_anchor_date');
    expect(body.stats).toMatchObject({
      in_bytes: 120 * 60 * 1000,
      out_bytes: 120 * 60 * 3000,
      p95_enabled: true,
      p95_status: 'available',
      in_p95_bytes_per_sec: 1000,
      out_p95_bytes_per_sec: 3000,
      selected_p95_bytes_per_sec: 3000,
      selected_p95_direction: 'out',
      in_peak_bytes_per_sec: 1000,
      out_peak_bytes_per_sec: 3000,
      selected_bytes: 120 * 60 * 3000,
      sample_count: 24,
      expected_sample_count: 24,
      coverage_ratio: 1,
      data_complete: true,
      effective_start: '2026-11-21T12:00:00Z',
      effective_end: '2026-11-21T14:00:00Z',
      cycle_complete: false,
      status: 'provisional',
    });
    expect(body.stats).not.toHaveProperty('p95_unavailable_reason');
    // Two hours are no complete day: the forecast says so instead of guessing.
    expect(body.forecast).toMatchObject({
      status: 'insufficient_data',
      reason: 'too_few_days',
      days_observed: 0,
      min_days: 3,
      projected_selected_bytes: null,
      projected_p95_bytes_per_sec: null,
    });

    await settings({ direction_mode: 'both' });
    expect((await get(url)).json().stats).toMatchObject({
      selected_bytes: 120 * 60 * 4000,
      selected_bytes_direction: 'total',
      selected_p95_bytes_per_sec: 4000,
      selected_peak_direction: 'total',
    });
    await settings({ direction_mode: 'max' });
    expect((await get(url)).json()).toMatchObject({
      direction_mode: 'max',
      stats: { selected_bytes_direction: 'out', selected_bytes: 120 * 60 * 3000 },
    });
    // Only a node with direction `default` inherits the global mode.
    await send('PATCH', `/api/admin/nodes/${node.id}`, { traffic_direction_mode: 'out' });
    await settings({ direction_mode: 'both' });
    expect((await get(url)).json().direction_mode).toBe('out');

    await send('PATCH', `/api/admin/nodes/${node.id}`, { traffic_p95_enabled: false });
    expect((await get(url)).json().stats).toMatchObject({
      p95_status: 'disabled',
      p95_unavailable_reason: 'disabled',
      selected_p95_bytes_per_sec: null,
    });
  });

  it('billing: fewer than 20 valid buckets leave P95 unavailable', async () => {
    await settings({ usage_mode: 'billing' });
    await send('PATCH', `/api/admin/nodes/${node.id}`, { traffic_p95_enabled: true });
    await feedSteady(node.id, 'eth0', 60, 10, 10);
    await moveTo(T0 + 60 * 60_000);
    const stats = (
      await get(`/api/statistics/traffic/summary?server_id=${node.id}&iface=eth0`)
    ).json().stats;
    expect(stats).toMatchObject({
      sample_count: 12,
      p95_status: 'insufficient_samples',
      in_p95_bytes_per_sec: null,
    });
  });

  it('daily needs billing (409) and then splits the cycle into local days', async () => {
    await feedSteady(node.id, 'eth0', 30, 100, 100);
    await moveTo(T0 + 30 * 60_000);
    const url = `/api/statistics/traffic/daily?server_id=${node.id}&iface=eth0`;
    const lite = await get(url);
    expect(lite.statusCode).toBe(409);
    expect(lite.json().code).toBe('traffic_daily_requires_billing');
    await settings({ usage_mode: 'billing' });
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    expect(res.json().items).toHaveLength(1);
    expect(res.json().items[0]).toMatchObject({
      server_id: node.id,
      iface: 'eth0',
      usage_mode: 'billing',
      start: '2026-11-21T12:00:00Z',
      end: '2026-11-21T12:30:00Z',
      stats: { in_bytes: 30 * 60 * 100, sample_count: 6 },
    });
    expect((await get(`${url}&period=previous`)).json()).toEqual({ items: [] });
  });

  it('monthly: current and previous periods, months 1-24', async () => {
    await settings({ usage_mode: 'billing' });
    await feedSteady(node.id, 'eth0', 30, 100, 100);
    await moveTo(T0 + 30 * 60_000);
    const base = `/api/statistics/traffic/monthly?server_id=${node.id}&iface=eth0`;
    const cur = (await get(base)).json();
    expect(cur.includes_current).toBe(true);
    expect(cur.items).toHaveLength(1);
    expect(cur.items[0]?.cycle.start).toBe('2026-11-01T00:00:00Z');
    const prev = (await get(`${base}&period=previous&months=24`)).json();
    expect(prev).toEqual({ includes_current: false, items: [] });
    // Next month the November cycle is the previous one.
    await moveTo(Date.UTC(2026, 11, 2));
    const later = (await get(`${base}&period=previous&months=1`)).json();
    expect(later.items).toHaveLength(1);
    expect(later.items[0]?.stats).toMatchObject({ cycle_complete: true, status: 'grace' });
    for (const m of ['0', '25', 'x', '-1']) {
      const res = await get(`${base}&months=${m}`);
      expect(res.statusCode, m).toBe(400);
      expect(res.json().code).toBe('invalid_request');
    }
  });

  it('rejects bad query parameters with 400 invalid_request and absent nodes with 404', async () => {
    for (const q of [
      'iface=eth0',
      'server_id=0&iface=eth0',
      'server_id=abc&iface=eth0',
      `server_id=${node.id}`,
      `server_id=${node.id}&iface=ALL`,
      `server_id=${node.id}&iface=${'x'.repeat(65)}`,
      `server_id=${node.id}&iface=a%01b`,
      `server_id=${node.id}&iface=eth0&period=last`,
    ]) {
      const res = await get(`/api/statistics/traffic/monthly?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().code).toBe('invalid_request');
    }
    expect((await get('/api/statistics/traffic/ifaces')).statusCode).toBe(400);
    const absent = await get('/api/statistics/traffic/summary?server_id=999&iface=eth0');
    expect(absent.statusCode).toBe(404);
    expect(absent.json().code).toBe('not_found');
  });

  it('guests: 403 unless guest_access_mode is by_node, then only visible nodes', async () => {
    const visible = await seedNode(t, { name: 'pub', guestVisible: true });
    const url = (id: number) => `/api/statistics/traffic/summary?server_id=${id}&iface=eth0`;
    const closed = await get(url(visible.id), {});
    expect(closed.statusCode).toBe(403);
    expect(closed.json().code).toBe('forbidden');
    expect(
      (await get(`/api/statistics/traffic/ifaces?server_id=${visible.id}`, {})).statusCode,
    ).toBe(403);
    await settings({ guest_access_mode: 'by_node' });
    expect((await get(url(visible.id), {})).statusCode).toBe(200);
    expect((await get(url(visible.id), { authorization: 'Bearer nonsense' })).statusCode).toBe(200);
    const hidden = await get(url(node.id), {});
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().code).toBe('not_found');
    expect((await get(url(node.id))).statusCode).toBe(200);
  });
});
