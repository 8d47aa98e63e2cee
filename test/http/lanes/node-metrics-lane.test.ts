import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { seedNode } from '../../support/seed-nodes.js';
import { agentReport } from '../../support/agent-payloads.js';
import {
  send,
  startLanePair,
  type Answer,
  type LanePair,
  type Sent,
} from '../../support/lane-pair.js';

/** The node-metrics lane must answer exactly what the route answers (see lane-pair.ts). */

let t: TestApp;
let pair: LanePair;
let node: { id: number; secret: string };

const post = (app: FastifyInstance, s: Omit<Sent, 'path'> & { path?: string }) =>
  send(app, {
    ...s,
    method: 'POST',
    path: s.path ?? '/api/node/metrics',
    headers: { 'content-type': 'application/json', ...s.headers },
  });

beforeEach(async () => {
  t = await buildTestApp();
  node = await seedNode(t, { name: 'web-01' });
  pair = await startLanePair(t.deps);
});
afterEach(async () => {
  await pair.close();
  await t.close();
});

/** Sends the request to both servers; returns the lane's answer after checking they match. */
async function both(s: Omit<Sent, 'path'> & { path?: string }): Promise<Answer> {
  t.clock.advance(1000);
  const lane = await post(pair.withLanes, s);
  t.clock.advance(1000);
  const route = await post(pair.routerOnly, s);
  expect(lane).toEqual(route);
  return lane;
}

const report = (seq = 0) => JSON.stringify(agentReport({ seq }));

describe('node metrics fast lane', () => {
  it('stores a report and answers 200 exactly like the route, without Fastify', async () => {
    const res = await both({ headers: { 'x-node-secret': node.secret }, body: report(1) });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toEqual({ ok: true, update: null });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(pair.routed()).toBe(0);
    const rows = (await t.sql.get<{ n: number }>(
      'SELECT count(*) AS n FROM metrics_raw WHERE node_id = ?',
      node.id,
    ))!;
    expect(rows.n).toBe(2);
    expect(t.deps.front.view(node.id)?.node.title).toBe('web-01');
  });

  it('answers a pending update manifest with the route schema fields only, in order', async () => {
    t.deps.updateOffers.manifestFor = async () =>
      ({
        size: 1234,
        sha256: 'a'.repeat(64),
        url: 'http://127.0.0.1:8080/deploy/linux/node_linux_amd64',
        version: '0.3.0',
        id: '0.3.0',
        internal: 'not for the wire',
      }) as never;
    const res = await both({ headers: { 'x-node-secret': node.secret }, body: report(2) });
    expect(res.body.toString()).toBe(
      '{"ok":true,"update":{"id":"0.3.0","version":"0.3.0",' +
        '"url":"http://127.0.0.1:8080/deploy/linux/node_linux_amd64",' +
        `"sha256":"${'a'.repeat(64)}","size":1234}}`,
    );
    expect(pair.routed()).toBe(0);
  });

  it.each([
    ['malformed JSON', '{"version":', 400],
    ['a duplicate key', '{"version":"1","version":"2"}', 400],
    ['a negative counter', report().replace('"process_count":312', '"process_count":-1'), 422],
  ])('answers %s like the route', async (_name, body, status) => {
    const res = await both({ headers: { 'x-node-secret': node.secret }, body });
    expect(res.status).toBe(status);
    expect(Object.keys(JSON.parse(res.body.toString()) as object)).toEqual(['code', 'message']);
    expect(pair.routed()).toBe(0);
  });

  it.each([
    ['an unknown secret', { headers: { 'x-node-secret': 'nope' }, body: report() }, 401],
    ['no secret', { body: report() }, 401],
    [
      'a text body',
      { headers: { 'x-node-secret': 'S', 'content-type': 'text/plain' }, body: report() },
      415,
    ],
    [
      'a body over 1 MiB',
      { headers: { 'x-node-secret': 'S' }, body: Buffer.alloc(1024 * 1024 + 1, 32) },
      413,
    ],
    ['a query string', { path: '/api/node/metrics?x=1', headers: { 'x-node-secret': 'S' } }, 200],
    ['an empty body', { headers: { 'x-node-secret': 'S' }, body: '' }, 400],
  ])(
    'leaves %s to the router',
    async (_name, sent: Omit<Sent, 'path'> & { path?: string }, status) => {
      const s = {
        ...sent,
        body: sent.body ?? report(3),
        headers: Object.fromEntries(
          Object.entries(sent.headers ?? {}).map(([k, v]) => [k, v === 'S' ? node.secret : v]),
        ),
      };
      const res = await both(s);
      expect(res.status).toBe(status);
      expect(pair.routed()).toBe(1);
    },
  );
});

describe('gzip report bodies on the fast lane', () => {
  const gz = (s: string | Buffer) => gzipSync(s);
  const zipped = { 'x-node-secret': 'S', 'content-encoding': 'gzip' };
  const withSecret = (h: Record<string, string>) =>
    Object.fromEntries(Object.entries(h).map(([k, v]) => [k, v === 'S' ? node.secret : v]));

  it('stores a gzip report like the route and says it takes gzip in the answer', async () => {
    const res = await both({ headers: withSecret(zipped), body: gz(report(11)) });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toEqual({ ok: true, update: null });
    expect(res.headers['accept-encoding']).toBe('gzip');
    expect(pair.routed()).toBe(0);
    const rows = (await t.sql.get<{ n: number }>(
      'SELECT count(*) AS n FROM metrics_raw WHERE node_id = ?',
      node.id,
    ))!;
    expect(rows.n).toBe(2);
  });

  it('lists gzip in plain answers too, and takes an explicit identity coding', async () => {
    const res = await both({
      headers: withSecret({ 'x-node-secret': 'S', 'content-encoding': 'identity' }),
      body: report(12),
    });
    expect(res.status).toBe(200);
    expect(res.headers['accept-encoding']).toBe('gzip');
    expect(pair.routed()).toBe(0);
  });

  it.each([
    ['a stream that is not gzip', Buffer.from('{"version":"1"}'), 400, 'invalid_request'],
    ['a truncated gzip stream', gz(report()).subarray(0, 40), 400, 'invalid_request'],
    ['gzip of malformed JSON', gz('{"version":'), 400, 'invalid_request'],
    [
      'gzip decoding to more than 1 MiB',
      gz(Buffer.alloc(1024 * 1024 + 1, 32)),
      413,
      'body_too_large',
    ],
  ])('answers %s like the route', async (_name, body, status, code) => {
    const res = await both({ headers: withSecret(zipped), body });
    expect(res.status).toBe(status);
    expect((JSON.parse(res.body.toString()) as { code: string }).code).toBe(code);
    expect(res.headers['accept-encoding']).toBe('gzip');
    expect(pair.routed()).toBe(0);
  });

  it.each(['br', 'deflate', 'gzip, gzip'])(
    'leaves Content-Encoding %j to the router, which answers 415 naming gzip',
    async (coding) => {
      const res = await both({
        headers: withSecret({ 'x-node-secret': 'S', 'content-encoding': coding }),
        body: gz(report(13)),
      });
      expect(res.status).toBe(415);
      expect((JSON.parse(res.body.toString()) as { code: string }).code).toBe(
        'unsupported_media_type',
      );
      expect(res.headers['accept-encoding']).toBe('gzip');
      expect(pair.routed()).toBe(1);
    },
  );
});

describe('node metrics fast lane behind a trusted proxy', () => {
  it('records the client address from X-Forwarded-For as the route does', async () => {
    await pair.close();
    await t.close();
    t = await buildTestApp({ DASH_TRUSTED_PROXIES: '127.0.0.1' });
    node = await seedNode(t, { name: 'web-02' });
    pair = await startLanePair(t.deps);
    const ipOf = async () =>
      (await t.sql.get<{ ip: string }>('SELECT ip FROM nodes WHERE id = ?', node.id))!.ip;
    t.clock.advance(1000);
    await post(pair.withLanes, {
      headers: { 'x-node-secret': node.secret, 'x-forwarded-for': '203.0.113.7' },
      body: report(4),
    });
    expect(await ipOf()).toBe('203.0.113.7');
    t.clock.advance(1000);
    await post(pair.routerOnly, {
      headers: { 'x-node-secret': node.secret, 'x-forwarded-for': '198.51.100.9' },
      body: report(5),
    });
    expect(await ipOf()).toBe('198.51.100.9');
    expect(pair.routed()).toBe(0);
  });
});
