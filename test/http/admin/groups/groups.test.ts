import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../support/build-app.js';
import { adminHeaders } from '../../../support/credentials.js';
import { resetFleet } from '../../../support/fleet.js';

let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminHeaders(t);
});
beforeEach(async () => resetFleet(t));
afterAll(async () => t.close());

const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: payload === undefined ? admin : { ...admin, 'content-type': 'application/json' },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
const list = async (url = '/api/admin/groups/') =>
  (await t.app.inject({ method: 'GET', url, headers: admin })).json<
    Array<{ id: number; name: string; remark: string; server_count: number }>
  >();

describe('admin groups', () => {
  it('starts with the default group as id 1', async () => {
    expect(await list()).toEqual([{ id: 1, name: 'default', remark: '', server_count: 0 }]);
    expect(await list('/api/admin/groups')).toHaveLength(1);
  });

  it('creates groups with trimmed name and remark, listed by id and in the map', async () => {
    expect(
      (await send('POST', '/api/admin/groups/', { name: '  Web  ', remark: ' edge ' })).statusCode,
    ).toBe(204);
    expect((await send('POST', '/api/admin/groups', { name: '数据库' })).statusCode).toBe(204);
    expect(await list()).toEqual([
      { id: 1, name: 'default', remark: '', server_count: 0 },
      { id: 2, name: 'Web', remark: 'edge', server_count: 0 },
      { id: 3, name: '数据库', remark: '', server_count: 0 },
    ]);
    const map = await t.app.inject({ method: 'GET', url: '/api/admin/groups/map', headers: admin });
    expect(map.statusCode).toBe(200);
    expect(map.json()).toEqual({ '1': 'default', '2': 'Web', '3': '数据库' });
  });

  it.each([
    [{ name: '' }, 'invalid_name'],
    [{ name: '   ' }, 'invalid_name'],
    [{}, 'invalid_name'],
    [{ name: 'x'.repeat(65) }, 'invalid_name'],
    [{ name: 'a\u0000b' }, 'invalid_name'],
    [{ name: 'ok', remark: 'r'.repeat(256) }, 'invalid_remark'],
    [{ name: 'ok', remark: 'line\nbreak' }, 'invalid_remark'],
    [{ name: 5 }, 'invalid_request'],
  ])('POST %j → 400 %s', async (body, code) => {
    const res = await send('POST', '/api/admin/groups/', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code });
    expect(await list()).toHaveLength(1);
  });

  it('accepts the limits exactly (64-character name, 255-character remark)', async () => {
    const res = await send('POST', '/api/admin/groups/', {
      name: '名'.repeat(64),
      remark: 'r'.repeat(255),
    });
    expect(res.statusCode).toBe(204);
  });

  it('patches name and remark separately', async () => {
    await send('POST', '/api/admin/groups/', { name: 'web' });
    expect((await send('PATCH', '/api/admin/groups/2', { remark: ' r ' })).statusCode).toBe(204);
    expect((await send('PATCH', '/api/admin/groups/2', { name: ' www ' })).statusCode).toBe(204);
    expect((await list())[1]).toEqual({ id: 2, name: 'www', remark: 'r', server_count: 0 });
  });

  it.each([
    ['/api/admin/groups/2', { name: '' }, 400, 'invalid_fields'],
    ['/api/admin/groups/2', { remark: 'x'.repeat(256) }, 400, 'invalid_fields'],
    ['/api/admin/groups/2', {}, 400, 'no_fields'],
    ['/api/admin/groups/2', { other: 1 }, 400, 'no_fields'],
    ['/api/admin/groups/abc', { name: 'x' }, 400, 'invalid_id'],
    ['/api/admin/groups/0', { name: 'x' }, 400, 'invalid_id'],
    ['/api/admin/groups/-1', { name: 'x' }, 400, 'invalid_id'],
    ['/api/admin/groups/9223372036854775808', { name: 'x' }, 400, 'invalid_id'],
    ['/api/admin/groups/99', { name: 'x' }, 404, 'not_found'],
  ])('PATCH %s %j → %i %s', async (url, body, status, code) => {
    await send('POST', '/api/admin/groups/', { name: 'web' });
    const res = await send('PATCH', url, body);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ code });
    expect((await list())[1]).toMatchObject({ name: 'web', remark: '' });
  });

  it('soft-deletes a group and its memberships; the default group stays', async () => {
    await send('POST', '/api/admin/groups/', { name: 'web' });
    await send('POST', '/api/admin/nodes/');
    const [node] = t.deps.nodeSecrets.size === 1 ? await t.deps.nodes.list() : [];
    if (!node) throw new Error('no node');
    await send('PATCH', `/api/admin/nodes/${node.id}`, { group_ids: [1, 2] });
    expect((await list()).map((g) => g.server_count)).toEqual([1, 1]);

    expect((await send('DELETE', '/api/admin/groups/2')).statusCode).toBe(204);
    expect(await list()).toHaveLength(1);
    expect((await t.deps.nodes.list())[0]?.groupIds).toEqual([1]);
    const again = await send('DELETE', '/api/admin/groups/2');
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: 'not_found' });

    const def = await send('DELETE', '/api/admin/groups/1');
    expect(def.statusCode).toBe(409);
    expect(def.json()).toMatchObject({ code: 'default_group_not_deletable' });
    expect((await send('DELETE', '/api/admin/groups/x')).json()).toMatchObject({
      code: 'invalid_id',
    });
  });

  it('requires an admin', async () => {
    for (const [method, url] of [
      ['GET', '/api/admin/groups/'],
      ['GET', '/api/admin/groups/map'],
      ['POST', '/api/admin/groups'],
      ['PATCH', '/api/admin/groups/1'],
      ['DELETE', '/api/admin/groups/1'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
    expect(await list()).toHaveLength(1);
  });
});
