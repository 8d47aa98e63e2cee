import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { adminHeaders } from '../../support/credentials.js';
import { agentReport } from '../../support/agent-payloads.js';
import { agentStatic } from '../../support/agent-static.js';

let t: TestApp;
let admin: Record<string, string>;
const json = { 'content-type': 'application/json' };
const nodes: Array<{ id: number; secret: string }> = [];

async function createNode(): Promise<{ id: number; secret: string }> {
  await t.app.inject({ method: 'POST', url: '/api/admin/nodes/', headers: admin });
  const list = (
    await t.app.inject({ method: 'GET', url: '/api/admin/nodes/', headers: admin })
  ).json<Array<{ id: number; secret: string }>>();
  const n = list.reduce((a, b) => (b.id > a.id ? b : a));
  return { id: n.id, secret: n.secret };
}

async function report(node: { secret: string }, seq: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/node/metrics',
    headers: { ...json, 'x-node-secret': node.secret },
    payload: JSON.stringify(agentReport({ seq })),
  });
  expect(res.statusCode).toBe(200);
}

const get = (headers: Record<string, string> = {}, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/front/metrics${query}`, headers });

beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminHeaders(t);
  for (let i = 0; i < 3; i++) nodes.push(await createNode());
  for (const n of nodes) {
    const s = await t.app.inject({
      method: 'POST',
      url: '/api/node/static',
      headers: { ...json, 'x-node-secret': n.secret },
      payload: JSON.stringify(agentStatic()),
    });
    expect(s.statusCode).toBe(200);
  }
  // Node 0 visible to guests; node 2 never reports.
  await t.app.inject({
    method: 'PATCH',
    url: `/api/admin/nodes/${nodes[0]!.id}`,
    headers: { ...admin, ...json },
    payload: { is_guest_visible: true, name: 'alpha' },
  });
  await t.app.inject({
    method: 'PATCH',
    url: `/api/admin/nodes/${nodes[1]!.id}`,
    headers: { ...admin, ...json },
    payload: { name: 'beta' },
  });
  await report(nodes[0]!, 1);
  await report(nodes[1]!, 1);
});
afterAll(async () => t.close());

type View = {
  node: { id: string; title: string };
  observation: { received_at: string; stale_after_sec: number };
  cpu: { usage_ratio: number };
};

describe('GET /api/front/metrics', () => {
  it('lists reporting nodes for admins, in display order, with the front view shape', async () => {
    const res = await get(admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const views = res.json<View[]>();
    expect(views.map((v) => v.node.id).sort()).toEqual(
      [String(nodes[0]!.id), String(nodes[1]!.id)].sort(),
    );
    for (const v of views) {
      expect(v.observation.stale_after_sec).toBe(17);
      expect(v.cpu.usage_ratio).toBeGreaterThanOrEqual(0);
    }
  });

  it('shows guests only guest-visible nodes; an invalid token is a guest', async () => {
    const views = (await get({ authorization: 'Bearer junk' })).json<View[]>();
    expect(views.map((v) => v.node.title)).toEqual(['alpha']);
  });

  it('serves gzip and answers 304 to a matching ETag', async () => {
    const res = await get({ ...admin, 'accept-encoding': 'gzip, br' });
    expect(res.headers['content-encoding']).toBe('gzip');
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    expect(JSON.parse(gunzipSync(res.rawPayload).toString('utf8'))).toHaveLength(2);
    const again = await get({ ...admin, 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.headers['cache-control']).toBe('no-store');
  });

  it('reflects admin changes at once: hiding, renaming and deleting', async () => {
    await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/nodes/${nodes[0]!.id}`,
      headers: { ...admin, ...json },
      payload: { is_guest_visible: false },
    });
    expect((await get()).json<View[]>()).toEqual([]);
    await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/nodes/${nodes[1]!.id}`,
      headers: { ...admin, ...json },
      payload: { name: 'renamed' },
    });
    expect((await get(admin)).json<View[]>().map((v) => v.node.title)).toContain('renamed');
    await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/nodes/${nodes[1]!.id}`,
      headers: admin,
    });
    expect((await get(admin)).json<View[]>().map((v) => v.node.id)).toEqual([String(nodes[0]!.id)]);
    const ingest = await t.app.inject({
      method: 'POST',
      url: '/api/node/metrics',
      headers: { ...json, 'x-node-secret': nodes[1]!.secret },
      payload: JSON.stringify(agentReport({ seq: 2 })),
    });
    expect(ingest.statusCode).toBe(401);
  });

  it('folds new reports in (within a second) and changes the ETag', async () => {
    const before = await get(admin);
    t.clock.advance(3000);
    await report(nodes[0]!, 5);
    t.clock.advance(1000);
    const after = await get(admin);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.json<View[]>()[0]!.observation.received_at).not.toBe(
      before.json<View[]>()[0]!.observation.received_at,
    );
  });

  it('pages with limit and offset', async () => {
    const n = await createNode();
    await report(n, 1);
    const all = (await get(admin)).json<View[]>();
    expect(all).toHaveLength(2);
    expect((await get(admin, '?limit=1')).json<View[]>()).toEqual(all.slice(0, 1));
    expect((await get(admin, '?limit=1&offset=1')).json<View[]>()).toEqual(all.slice(1, 2));
    expect((await get(admin, '?limit=5000')).json<View[]>()).toHaveLength(2);
  });

  it.each(['?offset=1', '?limit=0', '?limit=abc', '?limit=1&offset=-1'])(
    'answers %s with 400 invalid_request',
    async (q) => {
      const res = await get(admin, q);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_request' });
    },
  );
});
