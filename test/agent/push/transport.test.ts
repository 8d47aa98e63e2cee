import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { acceptsGzip, postJson, TransportError } from '../../../src/agent/push/http.js';
import { Endpoint } from '../../../src/agent/push/target.js';
import {
  fetchTransport,
  nodeTransport,
  type Transport,
} from '../../../src/agent/push/transport.js';
import { StubDash } from '../support/stub-dash.js';

const stubs: StubDash[] = [];
const servers: Server[] = [];
async function stub(): Promise<StubDash> {
  const s = await new StubDash().start();
  stubs.push(s);
  return s;
}
/** A raw server for answers StubDash does not give (huge, chunked, never). */
async function rawServer(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/node/metrics`;
}
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((s) => s.stop()));
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

const report = { version: '0.3.0', metrics: { cpu: { usage_ratio: 0.25 } }, pad: 'x'.repeat(2000) };

// The standalone build uses fetch (Bun's native client), the JS build node:http: both must
// behave the same for everything the push loop relies on. Node has fetch too, so both run here.
describe.each([
  ['node:http', nodeTransport],
  ['fetch', fetchTransport],
] as [string, Transport][])('agent HTTP transport over %s', (_name, transport) => {
  it('posts JSON with the secret and reads status, media type, Accept-Encoding and body', async () => {
    const s = await stub();
    s.advertiseGzip = true;
    const res = await postJson(new URL(s.url()), 'node-secret', report, { transport });
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('application/json');
    expect(res.acceptEncoding).toBe('gzip');
    expect(JSON.parse(res.body.toString())).toEqual({ ok: true, update: null });
    const got = s.received[0]!;
    expect(got.secret).toBe('node-secret');
    expect(got.contentType).toBe('application/json');
    expect(got.contentEncoding).toBeUndefined();
    expect(got.json).toEqual(report);
  });

  it('sends a plain gzip stream when asked, which decodes to the same JSON', async () => {
    const s = await stub();
    await postJson(new URL(s.url()), 'k', report, { transport, gzip: true });
    const got = s.received[0]!;
    expect(got.contentEncoding).toBe('gzip');
    expect(got.json).toEqual(report);
  });

  it.each([
    ['with a length', true],
    ['chunked', false],
  ])('cuts off a response body over 1 MiB (%s)', async (_kind, withLength) => {
    const big = Buffer.alloc(2 * 1024 * 1024, 0x61);
    const url = await rawServer((req, res) => {
      req.resume();
      res.writeHead(200, {
        'Content-Type': 'application/json',
        ...(withLength ? { 'Content-Length': String(big.length) } : {}),
      });
      res.end(big);
    });
    const res = await postJson(new URL(url), 'k', {}, { transport });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeLessThanOrEqual(1024 * 1024);
  });

  it('fails with a transport error, not a timeout, when nothing listens', async () => {
    const url = await rawServer(() => undefined);
    servers[0]!.closeAllConnections();
    await new Promise<void>((r) => servers.shift()!.close(() => r()));
    const err = await postJson(new URL(url), 'k', {}, { transport }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).timedOut).toBe(false);
  });

  it('fails with a transport error when HTTPS meets a plain-HTTP server', async () => {
    const s = await stub();
    const err = await postJson(
      new URL(s.url('/api/node/metrics', 'https')),
      'k',
      {},
      {
        transport,
      },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).timedOut).toBe(false);
    expect(s.received).toHaveLength(0);
  });

  it('ends a request the server never answers at the deadline, as a timeout', async () => {
    const url = await rawServer((req) => req.resume());
    const started = Date.now();
    const err = await transport(new URL(url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: Buffer.from('{}'),
      timeoutMs: 300,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('streams a download body and times out one that stalls', async () => {
    const url = await rawServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      res.write(Buffer.alloc(1000, 1));
      // …and never ends.
    });
    const res = await transport(new URL(url), { method: 'GET', headers: {}, timeoutMs: 300 });
    expect(res.status).toBe(200);
    let got = 0;
    const err = await (async () => {
      for await (const chunk of res.body) got += chunk.length;
    })().catch((e: unknown) => e);
    expect(got).toBe(1000);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).timedOut).toBe(true);
  });
});

describe('gzip report bodies (learned per target from Accept-Encoding, RFC 7694)', () => {
  it('sends plain JSON until the server lists gzip, then gzip, and plain again once it stops', async () => {
    const s = await stub();
    const url = new URL(s.url());
    const ep = new Endpoint({ url: url.href, key: 'k' }, url, false);
    await ep.post(url, report, 0);
    s.advertiseGzip = true;
    await ep.post(url, report, 0); // still plain: nothing was known when it left
    await ep.post(url, report, 0);
    s.advertiseGzip = false;
    await ep.post(url, report, 0); // gzip: the previous answer listed it
    await ep.post(url, report, 0);
    expect(s.received.map((r) => r.contentEncoding ?? 'plain')).toEqual([
      'plain',
      'plain',
      'gzip',
      'gzip',
      'plain',
    ]);
    expect(s.received.every((r) => JSON.stringify(r.json) === JSON.stringify(report))).toBe(true);
  });

  it('sends the body again plain when a compressed one is refused with 415', async () => {
    const s = await stub();
    s.advertiseGzip = true;
    const url = new URL(s.url());
    const ep = new Endpoint({ url: url.href, key: 'k' }, url, false);
    await ep.post(url, report, 0);
    s.responder = (req, res) => {
      if (req.contentEncoding) {
        res.removeHeader('Accept-Encoding');
        res.writeHead(415, { 'Content-Type': 'application/json' }).end('{}');
      } else res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
    };
    const res = await ep.post(url, report, 0);
    expect(res.status).toBe(200);
    expect(s.received.map((r) => r.contentEncoding ?? 'plain')).toEqual(['plain', 'gzip', 'plain']);
  });

  it.each([
    ['gzip', true],
    ['gzip, deflate, br', true],
    ['br;q=1, GZIP;q=0.5', true],
    ['x-gzip', true],
    ['gzip;q=0', false],
    ['identity', false],
    ['', false],
    [undefined, false],
  ])('reads Accept-Encoding %j as gzip accepted: %s', (value, expected) => {
    expect(acceptsGzip(value)).toBe(expected);
  });
});
