import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../support/build-app.js';
import { adminHeaders } from '../../../support/credentials.js';
import { resetFleet } from '../../../support/fleet.js';
import type { NodeEvent } from '../../../../src/domain/nodes/node-events.js';
import { nodeApi, type ListedNode } from './helpers.js';

let t: TestApp;
let admin: Record<string, string>;
const events: NodeEvent[] = [];
let nodes: ListedNode[];
beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminHeaders(t);
  t.deps.nodeEvents.on((e) => void events.push(e));
});
beforeEach(async () => {
  await resetFleet(t);
  nodes = [await api().create(), await api().create(), await api().create()];
  events.length = 0;
});
afterAll(async () => t.close());
const api = () => nodeApi(t, () => admin);
const ids = () => nodes.map((n) => n.id);
const p95 = (body: unknown) => api().send('PATCH', '/api/admin/nodes/traffic-p95', body);
const order = (body: unknown) => api().send('PUT', '/api/admin/nodes/display-order', body);
const p95Of = async () => (await api().list()).map((n) => [n.id, n.traffic_p95_enabled]);

describe('PATCH /api/admin/nodes/traffic-p95', () => {
  it('turns p95 on and off for every listed node', async () => {
    const [a, b] = ids() as [number, number];
    expect((await p95({ ids: [a, b], enabled: true })).statusCode).toBe(204);
    expect((await api().node(a))?.traffic_p95_enabled).toBe(true);
    expect((await api().node(b))?.traffic_p95_enabled).toBe(true);
    expect((await api().node(ids()[2] as number))?.traffic_p95_enabled).toBe(false);
    expect((await p95({ ids: [b], enabled: false })).statusCode).toBe(204);
    expect((await api().node(b))?.traffic_p95_enabled).toBe(false);
    expect(events).toContainEqual({ type: 'updated', nodeId: a });
  });

  it.each([
    ['enabled missing', { ids: [1] }, 'invalid_fields'],
    ['ids missing', { enabled: true }, 'invalid_ids'],
    ['ids empty', { ids: [], enabled: true }, 'invalid_ids'],
    ['a zero id', { ids: [1, 0], enabled: true }, 'invalid_ids'],
    ['a negative id', { ids: [-2], enabled: true }, 'invalid_ids'],
    ['a duplicate id', { ids: [1, 2, 1], enabled: true }, 'invalid_ids'],
    [
      '10001 ids',
      { ids: Array.from({ length: 10001 }, (_, i) => i + 1), enabled: true },
      'invalid_ids',
    ],
    ['ids of the wrong type', { ids: 'all', enabled: true }, 'invalid_request'],
    ['enabled of the wrong type', { ids: [1], enabled: 'yes' }, 'invalid_request'],
  ])('rejects %s with 400 %s', async (_name, body, code) => {
    const res = await p95(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code });
  });

  it('updates nothing when any id is missing, even among 10000 valid ids', async () => {
    const before = await p95Of();
    const many = [...ids(), ...Array.from({ length: 9997 }, (_, i) => 1000 + i)];
    expect(many).toHaveLength(10000);
    const res = await p95({ ids: many, enabled: true });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
    expect(await p95Of()).toEqual(before);
  });

  it('updates nothing when any id is a deleted node', async () => {
    const [a, b, c] = ids() as [number, number, number];
    await api().send('DELETE', `/api/admin/nodes/${c}`);
    const before = await p95Of();
    const res = await p95({ ids: [a, b, c], enabled: true });
    expect(res.statusCode).toBe(404);
    expect(await p95Of()).toEqual(before);
  });
});

describe('PUT /api/admin/nodes/display-order', () => {
  it('shows the first id first', async () => {
    const [a, b, c] = ids() as [number, number, number];
    expect((await order({ ids: [b, c, a] })).statusCode).toBe(204);
    expect((await api().list()).map((n) => [n.id, n.display_order])).toEqual([
      [b, 3],
      [c, 2],
      [a, 1],
    ]);
    expect(events).toEqual([{ type: 'reordered' }]);
  });

  it('reads a bare array the same way', async () => {
    const [a, b, c] = ids() as [number, number, number];
    expect((await order([a, c, b])).statusCode).toBe(204);
    expect((await api().list()).map((n) => n.id)).toEqual([a, c, b]);
  });

  it.each([
    ['an incomplete list', (x: number[]) => ({ ids: x.slice(0, 2) }), 400, 'invalid_ids'],
    ['a duplicate', (x: number[]) => ({ ids: [...x, x[0]] }), 400, 'invalid_ids'],
    ['no ids', () => ({}), 400, 'invalid_ids'],
    ['an unknown node', (x: number[]) => ({ ids: [...x, 999] }), 404, 'not_found'],
  ])('rejects %s and keeps the order', async (_name, body, status, code) => {
    const before = await api().list();
    const res = await order(body(ids()));
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ code });
    expect(await api().list()).toEqual(before);
  });
});

describe('DELETE /api/admin/nodes/{id}', () => {
  it('removes the node from every read and from ingest at once', async () => {
    const [a, b] = nodes as [ListedNode, ListedNode];
    expect((await api().send('DELETE', `/api/admin/nodes/${a.id}`)).statusCode).toBe(204);
    expect((await api().list()).map((n) => n.id)).not.toContain(a.id);
    expect(t.deps.nodeSecrets.lookup(a.secret)).toBeUndefined();
    expect(events).toEqual([{ type: 'deleted', nodeId: a.id }]);
    const groups = await t.app.inject({ method: 'GET', url: '/api/admin/groups/', headers: admin });
    expect(groups.json()).toEqual([{ id: 1, name: 'default', remark: '', server_count: 2 }]);
    expect((await api().send('DELETE', `/api/admin/nodes/${b.id}/`)).statusCode).toBe(204);
    expect((await api().list()).map((n) => n.id)).toEqual([nodes[2]?.id]);
  });

  it.each([
    ['x', 400, 'invalid_id'],
    ['0', 400, 'invalid_id'],
    ['99', 404, 'not_found'],
  ])('answers id %s with %i %s', async (id, status, code) => {
    const res = await api().send('DELETE', `/api/admin/nodes/${id}`);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ code });
  });

  it('answers 404 for a node already deleted, and refuses patches to it', async () => {
    const id = ids()[0] as number;
    await api().send('DELETE', `/api/admin/nodes/${id}`);
    expect((await api().send('DELETE', `/api/admin/nodes/${id}`)).statusCode).toBe(404);
    const res = await api().send('PATCH', `/api/admin/nodes/${id}`, { name: 'ghost' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
  });
});
