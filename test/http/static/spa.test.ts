import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../../src/http/server.js';
import { createSpaHandler, resolveInside } from '../../../src/http/static/spa.js';
import { silentLogger } from '../../../src/platform/logger.js';
import { buildTestApp, type TestApp } from '../../support/build-app.js';

const INDEX = '<!doctype html><div id="root"></div>';
const ASSET = 'console.log("app");';

function makeDist(): { root: string; parent: string } {
  const parent = mkdtempSync(join(tmpdir(), 'dash-spa-'));
  const root = join(parent, 'dist');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), INDEX);
  writeFileSync(join(root, 'assets', 'index-abc123.js'), ASSET);
  writeFileSync(join(root, 'assets', 'index-abc123.css'), 'body{}');
  writeFileSync(join(root, 'brandlogo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(parent, 'secret.txt'), 'outside the web root');
  return { root, parent };
}

let app: FastifyInstance;
let dist: { root: string; parent: string };

beforeAll(async () => {
  dist = makeDist();
  app = createHttpServer({
    logger: silentLogger,
    routes: [],
    guards: {},
    fallback: createSpaHandler({ root: dist.root }),
  });
  await app.ready();
});
afterAll(async () => app.close());

describe('SPA static handler', () => {
  it('serves index.html at / without long caching', async () => {
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(INDEX);
  });

  it('falls back to index.html for client-side routes, with or without a query', async () => {
    for (const url of ['/nodes/12', '/admin/nodes', '/admin/settings?tab=x', '/login']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.body, url).toBe(INDEX);
    }
  });

  it('serves hashed assets with their type and an immutable long cache', async () => {
    const js = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    expect(js.body).toBe(ASSET);
    const css = await app.inject({ method: 'GET', url: '/assets/index-abc123.css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('serves top-level public files without the immutable cache', async () => {
    const res = await app.inject({ method: 'GET', url: '/brandlogo.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('answers 304 when the ETag matches', async () => {
    const first = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers HEAD with headers and no body', async () => {
    const res = await app.inject({ method: 'HEAD', url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(ASSET)));
    expect(res.body).toBe('');
  });

  it('answers 404 for missing assets instead of the app page', async () => {
    for (const url of ['/assets/missing-123.js', '/assets/nothing', '/favicon.ico', '/a/b.png']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('<div id="root">');
    }
  });

  it('never serves files outside the web root', async () => {
    for (const url of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e%5csecret.txt',
      '/%00',
      '/%E0%A4%A',
    ]) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.body, url).not.toContain('outside the web root');
      // Fastify itself rejects a malformed escape with 400 before any handler runs.
      expect([200, 400, 404], url).toContain(res.statusCode);
    }
    expect(resolveInside(dist.root, '/../secret.txt')).toBeNull();
    expect(resolveInside(dist.root, '/%2e%2e/%2e%2e/etc/passwd')).toBeNull();
    expect(resolveInside(dist.root, '/assets/../index.html')).toBe(join(dist.root, 'index.html'));
    expect(resolveInside(dist.root, '/..%2f..%2fsecret.txt')).toBeNull();
    expect(resolveInside(dist.root, '/%00')).toBeNull();
    expect(resolveInside(dist.root, '/%E0%A4%A')).toBeNull();
  });

  it('answers 404 for other methods on non-API paths', async () => {
    const res = await app.inject({ method: 'POST', url: '/admin/nodes' });
    expect(res.statusCode).toBe(404);
  });

  it('explains a missing build instead of showing a blank page', async () => {
    const empty = createHttpServer({
      logger: silentLogger,
      routes: [],
      guards: {},
      fallback: createSpaHandler({ root: join(dist.parent, 'not-built') }),
    });
    const res = await empty.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('has not been built');
    await empty.close();
  });
});

describe('SPA wiring in the app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t.close());

  it('keeps the JSON 404 for unknown /api paths', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json<{ code: string }>().code).toBe('not_found');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('hands non-API paths to the SPA handler', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/admin/nodes' });
    // 200 with the built app, or 503 explaining that web/dist has not been built yet.
    expect([200, 503]).toContain(res.statusCode);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  });
});
