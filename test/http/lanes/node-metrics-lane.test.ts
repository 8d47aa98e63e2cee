import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { seedNode } from '../../support/seed-nodes.js';
import { agentReport } from '../../support/agent-payloads.js';

/**
 * The node-metrics fast lane must answer exactly what the Fastify route answers. The same
 * requests go over real sockets to Dash with its lanes and to Dash without them (inject() would
 * bypass the lanes), and the answers are compared; a hook counts what reached Fastify.
 */

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

interface Sent {
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

function send(app: FastifyInstance, s: Sent): Promise<Answer> {
  const { port } = app.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: s.path ?? '/api/node/metrics',
        headers: { 'content-type': 'application/json', ...s.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const headers = { ...res.headers };
          delete headers.date;
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString() });
        });
      },
    );
    req.on('error', reject);
    req.end(s.body);
  });
}

let t: TestApp;
let withLanes: FastifyInstance;
let routerOnly: FastifyInstance;
let routed = 0;
let node: { id: number; secret: string };

async function start(fastLanes: boolean): Promise<FastifyInstance> {
  const app = buildApp(t.deps, { fastLanes });
  if (fastLanes) {
    app.addHook('onRequest', (_req, _reply, done) => {
      routed++;
      done();
    });
  }
  await app.listen({ host: '127.0.0.1', port: 0 });
  return app;
}

beforeEach(async () => {
  t = await buildTestApp();
  node = seedNode(t.deps, { name: 'web-01' });
  routed = 0;
  withLanes = await start(true);
  routerOnly = await start(false);
});
afterEach(async () => {
  await withLanes.close();
  await routerOnly.close();
  await t.close();
});

/** Sends the request to both servers; returns the lane's answer after checking they match. */
async function both(s: Sent): Promise<Answer> {
  t.clock.advance(1000);
  const lane = await send(withLanes, s);
  t.clock.advance(1000);
  const route = await send(routerOnly, s);
  expect(lane).toEqual(route);
  return lane;
}

const report = (seq = 0) => JSON.stringify(agentReport({ seq }));

describe('node metrics fast lane', () => {
  it('stores a report and answers 200 exactly like the route, without Fastify', async () => {
    const res = await both({ headers: { 'x-node-secret': node.secret }, body: report(1) });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ ok: true, update: null });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(routed).toBe(0);
    const rows = t.deps.store.raw
      .prepare('SELECT count(*) AS n FROM metrics_raw WHERE node_id = ?')
      .get(node.id) as { n: number };
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
    expect(res.body).toBe(
      '{"ok":true,"update":{"id":"0.3.0","version":"0.3.0",' +
        '"url":"http://127.0.0.1:8080/deploy/linux/node_linux_amd64",' +
        `"sha256":"${'a'.repeat(64)}","size":1234}}`,
    );
    expect(routed).toBe(0);
  });

  it.each([
    ['malformed JSON', '{"version":', 400],
    ['a duplicate key', '{"version":"1","version":"2"}', 400],
    ['a negative counter', report().replace('"process_count":312', '"process_count":-1'), 422],
  ])('answers %s like the route', async (_name, body, status) => {
    const res = await both({ headers: { 'x-node-secret': node.secret }, body });
    expect(res.status).toBe(status);
    expect(Object.keys(JSON.parse(res.body) as object)).toEqual(['code', 'message']);
    expect(routed).toBe(0);
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
  ])('leaves %s to the router', async (_name, sent: Sent, status) => {
    const s: Sent = {
      ...sent,
      body: sent.body ?? report(3),
      headers: Object.fromEntries(
        Object.entries(sent.headers ?? {}).map(([k, v]) => [k, v === 'S' ? node.secret : v]),
      ),
    };
    const res = await both(s);
    expect(res.status).toBe(status);
    expect(routed).toBe(1);
  });
});

describe('node metrics fast lane behind a trusted proxy', () => {
  it('records the client address from X-Forwarded-For as the route does', async () => {
    await withLanes.close();
    await routerOnly.close();
    await t.close();
    t = await buildTestApp({ DASH_TRUSTED_PROXIES: '127.0.0.1' });
    node = seedNode(t.deps, { name: 'web-02' });
    withLanes = await start(true);
    routerOnly = await start(false);
    const ipOf = () =>
      (t.deps.store.raw.prepare('SELECT ip FROM nodes WHERE id = ?').get(node.id) as { ip: string })
        .ip;
    t.clock.advance(1000);
    await send(withLanes, {
      headers: { 'x-node-secret': node.secret, 'x-forwarded-for': '203.0.113.7' },
      body: report(4),
    });
    expect(ipOf()).toBe('203.0.113.7');
    t.clock.advance(1000);
    await send(routerOnly, {
      headers: { 'x-node-secret': node.secret, 'x-forwarded-for': '198.51.100.9' },
      body: report(5),
    });
    expect(ipOf()).toBe('198.51.100.9');
    expect(routed).toBe(0);
  });
});
