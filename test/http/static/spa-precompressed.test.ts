import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../../src/http/server.js';
import { acceptedCodings, createSpaHandler } from '../../../src/http/static/spa.js';
import { silentLogger } from '../../../src/platform/logger.js';

const JS = 'console.log("the app");'.repeat(200);
const CSS = 'body{color:red}'.repeat(100);
const PNG = 'not really a png';

let app: FastifyInstance;
let root: string;

beforeAll(async () => {
  root = join(mkdtempSync(join(tmpdir(), 'dash-spa-z-')), 'dist');
  const assets = join(root, 'assets');
  mkdirSync(assets, { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(assets, 'app-1.js'), JS);
  writeFileSync(join(assets, 'app-1.js.br'), brotliCompressSync(JS));
  writeFileSync(join(assets, 'app-1.js.gz'), gzipSync(JS));
  writeFileSync(join(assets, 'app-1.js.map'), '{"sources":["src/secret.ts"]}');
  writeFileSync(join(assets, 'app-1.css'), CSS);
  writeFileSync(join(assets, 'app-1.css.gz'), gzipSync(CSS));
  writeFileSync(join(assets, 'logo.png'), PNG);
  writeFileSync(join(assets, 'logo.png.gz'), gzipSync(PNG));
  // A compressed copy older than its file (left from an earlier build) must not be served.
  writeFileSync(join(assets, 'old-2.js'), JS);
  writeFileSync(join(assets, 'old-2.js.br'), brotliCompressSync('stale'));
  utimesSync(join(assets, 'old-2.js.br'), new Date(1000), new Date(1000));
  app = createHttpServer({
    logger: silentLogger,
    routes: [],
    guards: {},
    fallback: createSpaHandler({ root }),
  });
  await app.ready();
});
afterAll(async () => app.close());

const get = (url: string, acceptEncoding?: string) =>
  app.inject({
    method: 'GET',
    url,
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  });

describe('precompressed SPA assets', () => {
  it('sends brotli when accepted, with Vary and the real type', async () => {
    const res = await get('/assets/app-1.js', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(res.rawPayload.length).toBeLessThan(JS.length);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(JS);
  });

  it('sends gzip when brotli is not accepted (or weighted 0) or has no copy', async () => {
    const js = await get('/assets/app-1.js', 'gzip, br;q=0');
    expect(js.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(js.rawPayload).toString()).toBe(JS);
    const css = await get('/assets/app-1.css', 'br, gzip');
    expect(css.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(css.rawPayload).toString()).toBe(CSS);
  });

  it('sends the file as it is without an accepted coding, still saying it varies', async () => {
    const res = await get('/assets/app-1.js');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.body).toBe(JS);
    const none = await get('/assets/app-1.js', 'gzip;q=0, identity');
    expect(none.body).toBe(JS);
  });

  it('gives each encoding its own ETag and answers 304 for the matching one', async () => {
    const br = await get('/assets/app-1.js', 'br');
    const plain = await get('/assets/app-1.js');
    expect(br.headers.etag).not.toBe(plain.headers.etag);
    const again = await app.inject({
      method: 'GET',
      url: '/assets/app-1.js',
      headers: { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('never serves a compressed copy older than its file', async () => {
    const res = await get('/assets/old-2.js', 'br');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(JS);
  });

  it('does not compress binary types, and has no Vary there', async () => {
    const res = await get('/assets/logo.png', 'gzip');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
    expect(res.body).toBe(PNG);
  });

  it('does not serve source maps', async () => {
    const res = await get('/assets/app-1.js.map');
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('secret');
  });
});

describe('acceptedCodings', () => {
  it('reads codings with their weights', () => {
    expect([...acceptedCodings('gzip, deflate, br')]).toEqual(['gzip', 'deflate', 'br']);
    expect([...acceptedCodings('BR;q=0.5, gzip;q=0')]).toEqual(['br']);
    expect([...acceptedCodings(undefined)]).toEqual([]);
    expect([...acceptedCodings(['gzip', 'br;q=1.0'])]).toEqual(['gzip', 'br']);
  });
});
