import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { adminHeaders } from '../../support/credentials.js';
import { agentReport } from '../../support/agent-payloads.js';
import { seedNode } from '../../support/seed-nodes.js';

let t: TestApp;
let admin: Record<string, string>;
let shown: { id: number; secret: string };
let hidden: { id: number; secret: string };
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminHeaders(t);
  shown = await seedNode(t, { guestVisible: true });
  hidden = await seedNode(t);
  for (let seq = 0; seq < 20; seq++) {
    for (const n of [shown, hidden]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/node/metrics',
        headers: { ...json, 'x-node-secret': n.secret },
        payload: JSON.stringify(agentReport({ seq })),
      });
      expect(res.statusCode).toBe(200);
    }
    t.clock.advance(3000);
  }
});
afterAll(async () => t.close());

const get = (q: string, headers: Record<string, string> = admin) =>
  t.app.inject({ method: 'GET', url: `/api/metrics/history?${q}`, headers });
const setMode = (mode: string) =>
  t.app.inject({
    method: 'PATCH',
    url: '/api/admin/system/settings/',
    headers: { ...admin, ...json },
    payload: { history_guest_access_mode: mode },
  });

type Series = {
  server_id: number;
  metric: string;
  range: string;
  agg: string;
  step_sec: number;
  points: Array<{ ts: string; value: number | null }>;
};

describe('GET /api/metrics/history', () => {
  it.each([
    ['30m', 3],
    ['1h', 6],
    ['12h', 60],
    ['24h', 120],
    ['1w', 900],
    ['15d', 1800],
    ['30d', 3600],
  ])(
    'range %s answers the same shape with step %is, including the newest raw samples',
    async (range, step) => {
      const res = await get(`server_id=${shown.id}&metric=cpu.usage_ratio&range=${range}`);
      expect(res.statusCode).toBe(200);
      const s = res.json<Series>();
      expect(s).toMatchObject({
        server_id: shown.id,
        metric: 'cpu.usage_ratio',
        range,
        agg: 'avg',
        step_sec: step,
      });
      expect(s.points.length).toBeGreaterThan(0);
      const times = s.points.map((p) => Date.parse(p.ts));
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      for (const p of s.points) {
        expect(Date.parse(p.ts) % (step * 1000)).toBe(0);
        expect(p.value).toBeGreaterThanOrEqual(0);
        expect(p.value).toBeLessThanOrEqual(1);
      }
    },
  );

  it('serves every host metric, device metrics by name, and disk.temp_c without a device', async () => {
    for (const metric of [
      'mem.used',
      'net.recv_bps',
      'conn.tcp',
      'proc.count',
      'cpu.temp_c',
      'pressure.io.full_avg60',
    ]) {
      const res = await get(`server_id=${shown.id}&metric=${metric}&range=1h`);
      expect(res.statusCode, metric).toBe(200);
    }
    const io = await get(`server_id=${shown.id}&metric=disk.read_bps&range=1h&device=nvme0n1`);
    expect(io.json<Series>().points.length).toBeGreaterThan(0);
    const temp = await get(`server_id=${shown.id}&metric=disk.temp_c&range=1h`);
    expect(temp.json<Series>().points.length).toBeGreaterThan(0);
    for (const [metric, value] of [
      ['cpu.iowait_ratio', 0.021],
      ['cpu.steal_ratio', 0.004],
    ] as const) {
      const res = await get(`server_id=${shown.id}&metric=${metric}&range=30m&agg=max`);
      expect(res.statusCode, metric).toBe(200);
      const points = res.json<Series>().points;
      expect(points.length, metric).toBeGreaterThan(0);
      expect(points[0]!.value, metric).toBeCloseTo(value, 4);
    }
    const max = await get(`server_id=${shown.id}&metric=cpu.load1&range=30m&agg=max`);
    expect(max.json<Series>().agg).toBe('max');
  });

  it.each([
    ['no server_id', 'metric=cpu.usage_ratio&range=1h'],
    ['a bad server_id', 'server_id=x&metric=cpu.usage_ratio&range=1h'],
    ['an unknown metric', 'server_id=1&metric=cpu.bogus&range=1h'],
    ['an unknown range', 'server_id=1&metric=cpu.usage_ratio&range=2h'],
    ['an unknown agg', 'server_id=1&metric=cpu.usage_ratio&range=1h&agg=p99'],
    ['a device metric without device', 'server_id=1&metric=disk.read_bps&range=1h'],
  ])('answers %s with 400 invalid_request', async (_n, q) => {
    const res = await get(q.replace('server_id=1', `server_id=${shown.id}`));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_request' });
  });

  it('answers admins 404 for an unknown node', async () => {
    expect((await get('server_id=9999&metric=cpu.usage_ratio&range=1h')).statusCode).toBe(404);
  });

  it('finds the node in the front state: a read makes no node-record query to the store', async () => {
    // On PostgreSQL a record lookup is a round trip (two with its groups) on every read.
    const lookups = vi.spyOn(t.deps.store.nodes, 'get');
    try {
      const res = await get(`server_id=${shown.id}&metric=cpu.usage_ratio&range=30d`);
      expect(res.statusCode).toBe(200);
      expect(lookups).not.toHaveBeenCalled();
    } finally {
      lookups.mockRestore();
    }
  });

  it('is private by default: guests get 403 forbidden while guest history is disabled', async () => {
    await setMode('disabled');
    for (const id of [shown.id, hidden.id, 9999]) {
      const res = await get(`server_id=${id}&metric=cpu.usage_ratio&range=1h`, {});
      expect(res.statusCode, `node ${id}`).toBe(403);
      expect(res.json(), `node ${id}`).toMatchObject({ code: 'forbidden' });
    }
  });

  it('by_node opens guest-visible nodes; a hidden, deleted or absent node is 404 not_found', async () => {
    await setMode('by_node');
    try {
      expect(
        (await get(`server_id=${shown.id}&metric=cpu.usage_ratio&range=1h`, {})).statusCode,
      ).toBe(200);
      const gone = await seedNode(t, { guestVisible: true });
      const del = await t.app.inject({
        method: 'DELETE',
        url: `/api/admin/nodes/${gone.id}`,
        headers: admin,
      });
      expect(del.statusCode).toBe(204);
      for (const id of [hidden.id, gone.id, 9999]) {
        const res = await get(`server_id=${id}&metric=cpu.usage_ratio&range=1h`, {});
        expect(res.statusCode, `node ${id}`).toBe(404);
        expect(res.json(), `node ${id}`).toMatchObject({ code: 'not_found' });
      }
      // Admins still read a hidden node.
      expect((await get(`server_id=${hidden.id}&metric=cpu.usage_ratio&range=1h`)).statusCode).toBe(
        200,
      );
    } finally {
      await setMode('disabled');
    }
  });
});
