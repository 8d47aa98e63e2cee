import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { adminHeaders } from '../../support/credentials.js';

let t: TestApp;
let admin: Record<string, string>;
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminHeaders(t);
});
afterAll(async () => t.close());

async function createNode(): Promise<number> {
  await t.app.inject({ method: 'POST', url: '/api/admin/nodes/', headers: admin });
  const list = (
    await t.app.inject({ method: 'GET', url: '/api/admin/nodes/', headers: admin })
  ).json<Array<{ id: number }>>();
  return Math.max(...list.map((n) => n.id));
}

describe('GET /api/front/groups', () => {
  it('lists groups with visible members for guests and everything for admins', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/groups/',
      headers: { ...admin, ...json },
      payload: { name: 'web' },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/groups/',
      headers: { ...admin, ...json },
      payload: { name: 'empty' },
    });
    const groups = (
      await t.app.inject({ method: 'GET', url: '/api/admin/groups/', headers: admin })
    ).json<Array<{ id: number; name: string }>>();
    const web = groups.find((g) => g.name === 'web')!.id;
    const empty = groups.find((g) => g.name === 'empty')!.id;
    const shown = await createNode();
    const hidden = await createNode();
    const gone = await createNode();
    for (const id of [shown, hidden, gone]) {
      await t.app.inject({
        method: 'PATCH',
        url: `/api/admin/nodes/${id}`,
        headers: { ...admin, ...json },
        payload: { group_ids: [1, web] },
      });
    }
    await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/nodes/${shown}`,
      headers: { ...admin, ...json },
      payload: { is_guest_visible: true },
    });
    await t.app.inject({ method: 'DELETE', url: `/api/admin/nodes/${gone}`, headers: admin });

    const asAdmin = await t.app.inject({ method: 'GET', url: '/api/front/groups', headers: admin });
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.json()).toEqual([
      { id: 1, name: 'default', node_ids: [shown, hidden] },
      { id: web, name: 'web', node_ids: [shown, hidden] },
      { id: empty, name: 'empty', node_ids: [] },
    ]);

    const asGuest = await t.app.inject({
      method: 'GET',
      url: '/api/front/groups',
      headers: { authorization: 'Bearer nope' },
    });
    expect(asGuest.json()).toEqual([
      { id: 1, name: 'default', node_ids: [shown] },
      { id: web, name: 'web', node_ids: [shown] },
    ]);
  });
});
