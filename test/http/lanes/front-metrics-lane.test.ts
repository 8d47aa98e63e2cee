import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { adminHeaders } from '../../support/credentials.js';
import { postAgentReport } from '../../support/post-report.js';
import { seedNode } from '../../support/seed-nodes.js';
import { send, startLanePair, type Answer, type LanePair } from '../../support/lane-pair.js';

/** Every request shape goes to Dash with and without lanes (see lane-pair.ts). */

let t: TestApp;
let pair: LanePair;
let admin: Record<string, string>;
let visibleId = 0;

/** Sends the same request to both apps; returns the lane app's answer and whether it routed. */
async function both(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ answer: Answer; routed: boolean }> {
  const before = pair.routed();
  const answer = await send(pair.withLanes, { method, path, headers, body });
  const viaRouter = pair.routed() > before;
  const expected = await send(pair.routerOnly, { method, path, headers, body });
  expect(answer).toEqual(expected);
  return { answer, routed: viaRouter };
}

async function report(secret: string, seq: number): Promise<void> {
  expect((await postAgentReport(t, secret, seq)).statusCode).toBe(200);
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminHeaders(t);
  const visible = await seedNode(t, { name: 'visible', guestVisible: true });
  const hidden = await seedNode(t, { name: 'hidden' });
  visibleId = visible.id;
  for (const n of [visible, hidden]) {
    await t.deps.front.ensureNode(n.id);
    await report(n.secret, 1);
  }
  pair = await startLanePair(t.deps);
});

afterAll(async () => {
  await pair.close();
  await t.close();
});

// Both apps keep their own snapshot cache; a rebuild window apart they would disagree on ETags.
beforeEach(() => t.clock.advance(2000));

describe('front metrics fast lane', () => {
  it('answers a guest, identity, exactly as the route does', async () => {
    const { answer, routed: viaRouter } = await both('GET', '/api/front/metrics');
    expect(viaRouter).toBe(false);
    expect(answer.status).toBe(200);
    expect(answer.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      vary: 'Authorization, Accept-Encoding',
    });
    expect(answer.headers['content-encoding']).toBeUndefined();
    const views = JSON.parse(answer.body.toString('utf8')) as Array<{ node: { title: string } }>;
    expect(views.map((v) => v.node.title)).toEqual(['visible']);
  });

  it('answers a guest with gzip', async () => {
    const { answer, routed: viaRouter } = await both('GET', '/api/front/metrics', {
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(viaRouter).toBe(false);
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(answer.body).toString('utf8'))).toHaveLength(1);
  });

  it.each<Record<string, string>>([{}, { 'accept-encoding': 'gzip' }])(
    'answers an admin (%o)',
    async (extra) => {
      const { answer, routed: viaRouter } = await both('GET', '/api/front/metrics', {
        ...admin,
        ...extra,
      });
      expect(viaRouter).toBe(false);
      expect(answer.status).toBe(200);
      const text = extra['accept-encoding'] ? gunzipSync(answer.body) : answer.body;
      expect(JSON.parse(text.toString('utf8'))).toHaveLength(2);
    },
  );

  it('leaves a read that must first catch up with followed reports to the route', async () => {
    // As on an instance that does not lead, after another instance's report (FrontState.follow).
    t.deps.front.follow([visibleId]);
    const behind = await both('GET', '/api/front/metrics', admin);
    expect(behind.routed).toBe(true);
    expect(behind.answer.status).toBe(200);
    expect(t.deps.front.unreadFollowed).toBe(0);
    const caughtUp = await both('GET', '/api/front/metrics', admin);
    expect(caughtUp.routed).toBe(false);
  });

  it('answers 304 to the current ETag of the same audience only', async () => {
    const guest = await both('GET', '/api/front/metrics');
    const etag = guest.answer.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const same = await both('GET', '/api/front/metrics', { 'if-none-match': etag });
    expect(same.routed).toBe(false);
    expect(same.answer.status).toBe(304);
    expect(same.answer.body).toHaveLength(0);
    expect(same.answer.headers).toMatchObject({ etag, 'cache-control': 'no-store' });
    const other = await both('GET', '/api/front/metrics', { ...admin, 'if-none-match': etag });
    expect(other.routed).toBe(false);
    expect(other.answer.status).toBe(200);
  });

  it('serves new reports with a new ETag', async () => {
    const first = await both('GET', '/api/front/metrics', admin);
    const node = await seedNode(t, { name: 'late' });
    await t.deps.front.ensureNode(node.id);
    await report(node.secret, 1);
    t.clock.advance(2000);
    const next = await both('GET', '/api/front/metrics', {
      ...admin,
      'if-none-match': first.answer.headers.etag as string,
    });
    expect(next.routed).toBe(false);
    expect(next.answer.status).toBe(200);
    expect(JSON.parse(next.answer.body.toString('utf8'))).toHaveLength(3);
  });

  it.each([
    ['HEAD', '/api/front/metrics', {}],
    ['GET', '/api/front/metrics?limit=1', {}],
    ['GET', '/api/front/metrics?limit=1&offset=1', { authorization: 'admin' }],
    ['GET', '/api/front/metrics?limit=abc', {}],
    ['GET', '/api/front/metrics?', {}],
    ['GET', '/api/front/metrics?x=1', { 'accept-encoding': 'gzip' }],
    ['GET', '/api/front/metrics/', {}],
    ['GET', '/api/front/metrics', { authorization: 'Bearer junk' }],
    ['GET', '/api/front/metrics', { authorization: 'Bearer ' }],
    ['GET', '/api/front/metrics', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['POST', '/api/front/metrics', {}],
  ])('leaves %s %s (%o) to the router', async (method, path, headers) => {
    const h: Record<string, string> = { ...headers };
    if (h.authorization === 'admin') Object.assign(h, admin);
    const { routed: viaRouter } = await both(method, path, h);
    expect(viaRouter).toBe(true);
  });

  it('leaves a request with a body to the router', async () => {
    const { answer, routed: viaRouter } = await both(
      'GET',
      '/api/front/metrics',
      { 'content-type': 'text/plain', 'content-length': '5' },
      'hello',
    );
    expect(viaRouter).toBe(true);
    expect(answer.status).toBe(415);
  });

  it('treats a revoked token like any invalid one: the router answers, as a guest', async () => {
    const issued = await t.deps.auth.login('test-admin-password', 'session');
    const headers = { authorization: `Bearer ${issued.accessToken}` };
    expect((await both('GET', '/api/front/metrics', headers)).routed).toBe(false);
    await t.deps.auth.revoke(t.deps.auth.authenticate(issued.accessToken) as string);
    const after = await both('GET', '/api/front/metrics', headers);
    expect(after.routed).toBe(true);
    expect(JSON.parse(after.answer.body.toString('utf8'))).toHaveLength(1);
  });
});
