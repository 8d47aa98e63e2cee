import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../../support/build-app.js';
import { adminHeaders } from '../../../support/credentials.js';
import { seedNode } from '../../../support/seed-nodes.js';
import type { RebuildState } from '../../../../src/domain/traffic/rebuild.js';

let t: TestApp;
let admin: Record<string, string>;
let node: { id: number; secret: string };
const HOUR = 3_600_000;

beforeEach(async () => {
  t = await buildTestApp();
  admin = await adminHeaders(t);
  node = await seedNode(t, { name: 'web-01' });
});
afterEach(async () => t.close());

const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => {
  const res = await t.app.inject({
    method,
    url,
    headers: { ...admin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return {
    statusCode: res.statusCode,
    body: (res.body === '' ? {} : res.json()) as RebuildState & { code?: string },
  };
};
const state = async () => (await call('GET', '/api/admin/nodes/traffic/rebuild')).body;
const rebuild = (id: number = node.id) => call('POST', `/api/admin/nodes/${id}/traffic/rebuild`);
const mode = (usage_mode: string) =>
  call('PATCH', '/api/statistics/traffic/settings', { usage_mode });

/** `hours` of one sample a minute, ending at the fake clock's now. */
async function feed(hours = 20) {
  const end = t.clock.now();
  for (let i = 0; i <= hours * 60; i++) {
    t.deps.traffic.collector.enqueue({
      nodeId: node.id,
      receivedAt: end - hours * HOUR + i * 60_000,
      ifaces: [{ name: 'eth0', rx: i * 6000, tx: i * 12_000 }],
    });
  }
  await t.deps.traffic.collector.flush();
}
/** What reads see (on SQLite, traffic_5m with each interface's held and open buckets). */
const facts = () => t.deps.store.traffic.facts(node.id, 'eth0', 0, Date.UTC(2100, 0));

describe('traffic rebuild', () => {
  it('is idle before any task', async () => {
    const res = await call('GET', '/api/admin/nodes/traffic/rebuild');
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatchObject({ server_id: 0, status: 'idle', running: false });
  });

  it('needs billing mode (409), a live node (404) and an admin', async () => {
    const lite = await rebuild();
    expect([lite.statusCode, lite.body.code]).toEqual([409, 'traffic_rebuild_requires_billing']);
    await mode('billing');
    const absent = await rebuild(999);
    expect([absent.statusCode, absent.body.code]).toEqual([404, 'not_found']);
    const guest = await t.app.inject({
      method: 'POST',
      url: `/api/admin/nodes/${node.id}/traffic/rebuild`,
    });
    expect(guest.statusCode).toBe(401);
  });

  it('rewrites the facts in 6-hour chunks to what incremental collection built', async () => {
    await feed();
    const before = await facts();
    expect(before.length).toBeGreaterThan(200);
    // Damage the facts and add a stale snapshot overlapping them.
    await t.sql.run('UPDATE traffic_5m SET in_bytes = 0 WHERE node_id = ?', node.id);
    await t.deps.store.traffic.putSnapshot(node.id, {
      iface: 'eth0',
      cycleStart: t.clock.now() - 10 * HOUR,
      cycleEnd: t.clock.now() - HOUR,
      statsJson: '{}',
      sealed: true,
    });
    await mode('billing');
    const res = await rebuild();
    expect(res.statusCode).toBe(202);
    expect(res.body).toMatchObject({ server_id: node.id, status: 'running', running: true });
    expect(res.body.started_at).toBe(new Date(t.clock.now()).toISOString().slice(0, 19) + 'Z');
    const again = await rebuild();
    expect([again.statusCode, again.body.code]).toEqual([409, 'traffic_rebuild_running']);
    await t.deps.traffic.rebuild.settled();
    const done = await state();
    expect(done).toMatchObject({ server_id: node.id, status: 'completed', running: false });
    expect(done.chunks_total).toBe(4);
    expect(done.chunks_done).toBe(4);
    expect(done).not.toHaveProperty('code');
    expect(await facts()).toEqual(before);
    expect(await t.deps.store.traffic.snapshots(node.id, 'eth0')).toEqual([]);
  });

  it('stops after the current chunk when switched to Lite, with a stable code', async () => {
    await feed(72);
    await mode('billing');
    expect((await rebuild()).statusCode).toBe(202);
    await t.deps.trafficSettings.patch({ usage_mode: 'lite' });
    await t.deps.traffic.rebuild.settled();
    const s = await state();
    expect(s).toMatchObject({
      status: 'failed',
      running: false,
      code: 'traffic_rebuild_requires_billing',
    });
    expect(s.chunks_done).toBeGreaterThanOrEqual(1);
    expect(s.chunks_done).toBeLessThan(s.chunks_total);
    expect(typeof s.error).toBe('string');
  });

  it('fails with traffic_rebuild_failed and no internal message when storage breaks', async () => {
    await feed();
    await mode('billing');
    const spy = vi
      .spyOn(t.deps.store.traffic, 'replaceFacts')
      .mockRejectedValue(new Error('SQLITE_FULL: secret path'));
    expect((await rebuild()).statusCode).toBe(202);
    await t.deps.traffic.rebuild.settled();
    spy.mockRestore();
    const s = await state();
    expect(s).toMatchObject({ status: 'failed', code: 'traffic_rebuild_failed' });
    expect(s.error).not.toContain('SQLITE');
  });

  it('answers 503 traffic_rebuild_unavailable when execution is unavailable', async () => {
    await mode('billing');
    t.deps.traffic.rebuild.setAvailable(false);
    const res = await rebuild();
    expect([res.statusCode, res.body.code]).toEqual([503, 'traffic_rebuild_unavailable']);
  });
});
