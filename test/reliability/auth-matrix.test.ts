import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../../src/http/route-table.js';
import type { RouteDef } from '../../src/http/route-def.js';
import { buildTestApp, type TestApp } from '../support/build-app.js';
import { agentReport } from '../support/agent-payloads.js';
import { agentStatic } from '../support/agent-static.js';
import { seedNode } from '../support/seed-nodes.js';
import { bearer, login, proofHeaders } from '../http/auth/helpers.js';

/**
 * The auth matrix of issue 25, generated from the route table: every admin route refuses every
 * kind of bad credential; optional-auth reads treat a bad Bearer as anonymous; refresh and
 * logout need the CSRF proof; a deleted node's secret stops working at once everywhere.
 * Each session is logged into once for the whole file (scrypt is slow under load).
 */
let t: TestApp;
let routes: RouteDef[];
let live: string;
let expired: string;
let loggedOut: string;
let node: { id: number; secret: string };
const json = { 'content-type': 'application/json' };
const ASSET = 'linux/node_linux_amd64';

const concrete = (path: string) => path.replace(/:sid/g, 'x').replace(/:[A-Za-z_]+/g, '1');
const hasBody = (r: RouteDef) => ['POST', 'PUT', 'PATCH'].includes(r.method);

beforeAll(async () => {
  t = await buildTestApp({ DASH_ACCESS_TOKEN_TTL: '1m' });
  routes = routeTable(t.deps);
  // An access token that expires: issued, then the clock moves past its lifetime.
  expired = (await login(t, 'persistent')).body!.access_token;
  t.clock.advance(61_000);
  live = (await login(t, 'persistent')).body!.access_token;
  // A session ended by logout.
  const out = await login(t, 'persistent');
  loggedOut = out.body!.access_token;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/logout',
    headers: proofHeaders(out.refresh, out.csrf, out.csrf),
  });
  expect(res.statusCode).toBe(204);
  node = await seedNode(t, { name: 'matrix' });
  const dir = join(t.config.home, 'deploy', 'linux');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(t.config.home, 'deploy', ASSET), '#!/bin/sh\n');
});
afterAll(async () => t.close());

async function call(r: RouteDef, headers: Record<string, string>) {
  return t.app.inject({
    method: r.method,
    url: concrete(r.path),
    headers: hasBody(r) && !r.multipart ? { ...headers, ...json } : headers,
    ...(hasBody(r) && !r.multipart ? { payload: '{}' } : {}),
  });
}

/** Every admin route refuses these credentials with 401 unauthorized, {code, message}. */
async function refusedEverywhere(label: string, headers: () => Record<string, string>) {
  const wrong: string[] = [];
  for (const r of routes.filter((x) => x.auth === 'admin')) {
    const res = await call(r, headers());
    let body: { code?: unknown; message?: unknown } = {};
    try {
      body = res.json();
    } catch {
      // reported below
    }
    if (res.statusCode !== 401 || body.code !== 'unauthorized' || typeof body.message !== 'string')
      wrong.push(`${label}: ${r.method} ${r.path} → ${res.statusCode} ${res.body.slice(0, 120)}`);
    if (res.headers['cache-control'] !== 'no-store') wrong.push(`${label}: ${r.path} cacheable`);
  }
  return wrong;
}

describe('admin routes × bad credentials', () => {
  it('the live token passes every guard (the matrix below is not vacuous)', async () => {
    const admins = routes.filter((x) => x.auth === 'admin');
    expect(admins.length).toBeGreaterThan(40);
    for (const r of admins.filter((x) => x.method === 'GET')) {
      const res = await call(r, bearer(live));
      expect(res.statusCode, `${r.method} ${r.path}`).not.toBe(401);
    }
  });

  it.each([
    ['no credentials', () => ({})],
    ['an empty Bearer', () => ({ authorization: 'Bearer ' })],
    ['a bare scheme', () => ({ authorization: 'Bearer' })],
    [
      'another scheme',
      () => ({ authorization: `Basic ${Buffer.from('admin:x').toString('base64')}` }),
    ],
    ['a tampered token', () => bearer(`${live.slice(0, -2)}${live.endsWith('A') ? 'B' : 'A'}A`)],
    ['a token with trailing junk', () => ({ authorization: `Bearer ${live} extra` })],
    ['a truncated token', () => bearer(live.slice(0, live.length >> 1))],
    ['garbage', () => bearer('\u0001\u0002'.repeat(10))],
    ['a very long token', () => bearer('a'.repeat(16_000))],
    ['an expired token', () => bearer(expired)],
    ['a token revoked by logout', () => bearer(loggedOut)],
    ['a node secret as X-Node-Secret', () => ({ 'x-node-secret': node.secret })],
    ['a node secret as Bearer', () => bearer(node.secret)],
  ])('refuses %s on every admin route', async (label, headers) => {
    expect(await refusedEverywhere(label, headers)).toEqual([]);
  });
});

describe('optional-auth reads', () => {
  it('treat an invalid Bearer exactly as no credentials', async () => {
    // A node hidden from guests: an admin sees it, an anonymous reader does not.
    for (const guestVisible of [false, true]) {
      const name = guestVisible ? 'seen-by-guests' : 'hidden-from-guests';
      const n = await seedNode(t, { name, guestVisible });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/node/metrics',
        headers: { ...json, 'x-node-secret': n.secret },
        payload: JSON.stringify(agentReport()),
      });
      expect(res.statusCode).toBe(200);
    }
    const optional = routes.filter((x) => x.auth === 'optional' && x.method === 'GET');
    expect(optional.length).toBeGreaterThan(5);
    for (const r of optional) {
      const url = concrete(r.path);
      const anonymous = await t.app.inject({ method: 'GET', url });
      for (const h of [
        bearer('not-a-token'),
        bearer(expired),
        bearer(loggedOut),
        { authorization: 'Basic abc' },
      ]) {
        const res = await t.app.inject({ method: 'GET', url, headers: h });
        expect(res.statusCode, `${url} ${JSON.stringify(h)}`).toBe(anonymous.statusCode);
        expect(res.body, url).toBe(anonymous.body);
      }
    }
    const front = (h: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: '/api/front/metrics', headers: h });
    expect((await front(bearer(live))).body).toContain('hidden-from-guests');
    const anonymous = (await front(bearer('not-a-token'))).body;
    expect(anonymous).not.toContain('hidden-from-guests');
    expect(anonymous).toContain('seen-by-guests');
  });
});

describe('CSRF on refresh and logout', () => {
  it.each([
    ['no header', (s: string) => proofHeaders(s.split('|')[0]!, s.split('|')[1]!)],
    ['a wrong header', (s: string) => proofHeaders(s.split('|')[0]!, s.split('|')[1]!, 'nope')],
    [
      'header and cookie equal but not the session’s',
      (s: string) => proofHeaders(s.split('|')[0]!, 'forged', 'forged'),
    ],
    [
      'no CSRF cookie',
      (s: string) => ({ cookie: `refresh=${s.split('|')[0]}`, 'x-csrf-token': s.split('|')[1]! }),
    ],
  ])('refuses refresh and logout with %s, and the session lives on', async (_label, headers) => {
    const s = await login(t, 'persistent');
    const proof = `${s.refresh}|${s.csrf}`;
    for (const url of ['/api/auth/refresh', '/api/auth/logout']) {
      const res = await t.app.inject({ method: 'POST', url, headers: headers(proof) });
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toMatchObject({ code: 'unauthorized' });
    }
    const still = await t.app.inject({
      method: 'GET',
      url: '/api/auth/sessions/',
      headers: bearer(s.body!.access_token),
    });
    expect(still.statusCode).toBe(200);
    // The right proof still works afterwards.
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: proofHeaders(s.refresh, s.csrf, s.csrf),
    });
    expect(ok.statusCode).toBe(200);
  });
});

describe('a deleted node', () => {
  it('has its secret refused at once on every node route and on /deploy', async () => {
    const doomed = await seedNode(t, { name: 'doomed' });
    const h = { 'x-node-secret': doomed.secret };
    const nodeRoutes = routes.filter((x) => x.auth === 'node');
    expect(nodeRoutes.map((r) => r.path).sort()).toEqual([
      '/api/node/identity',
      '/api/node/metrics',
      '/api/node/static',
    ]);
    const payloads: Record<string, string> = {
      '/api/node/identity': '{}',
      '/api/node/metrics': JSON.stringify(agentReport()),
      '/api/node/static': JSON.stringify(agentStatic()),
    };
    const hit = async () => {
      const out: number[] = [];
      for (const r of nodeRoutes) {
        const res = await t.app.inject({
          method: r.method,
          url: r.path,
          headers: { ...h, ...json },
          payload: payloads[r.path],
        });
        out.push(res.statusCode);
      }
      out.push(
        (await t.app.inject({ method: 'GET', url: `/deploy/${ASSET}`, headers: h })).statusCode,
      );
      return out;
    };
    expect(await hit()).toEqual([200, 200, 200, 200]);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/nodes/${doomed.id}`,
      headers: bearer(live),
    });
    expect(del.statusCode).toBe(204);
    expect(await hit()).toEqual([401, 401, 401, 401]);
  });
});

// Last: a password change ends every session, including the live one used above.
describe('a password change', () => {
  it('revokes every access token and refresh cookie issued before it', async () => {
    const s = await login(t, 'persistent');
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/sessions/', headers: bearer(live) }))
        .statusCode,
    ).toBe(200);
    await t.deps.adminPassword.set('a-brand-new-password');
    expect(await refusedEverywhere('after a password change', () => bearer(live))).toEqual([]);
    expect(
      await refusedEverywhere('after a password change', () => bearer(s.body!.access_token)),
    ).toEqual([]);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: proofHeaders(s.refresh, s.csrf, s.csrf),
    });
    expect(refresh.statusCode).toBe(401);
    // The new password logs in; the old one no longer does.
    expect((await login(t, 'session', 'a-brand-new-password')).res.statusCode).toBe(200);
    expect((await login(t, 'session')).res.statusCode).toBe(401);
  });
});
