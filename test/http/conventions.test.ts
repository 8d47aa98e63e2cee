import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../../src/http/route-table.js';
import { RouteMatcher } from '../../src/http/route-matcher.js';
import { IMPLEMENTED_METHODS, type RouteDef } from '../../src/http/route-def.js';
import { buildTestApp, type TestApp } from '../support/build-app.js';
import { sharedCredentials } from '../support/credentials.js';

/**
 * Walks every registered route and checks the cross-cutting rules of spec §4.1 on each, so a
 * route added later is covered without writing anything new.
 */
let t: TestApp;
let routes: RouteDef[];
let matcher: RouteMatcher;
let creds: ReturnType<typeof sharedCredentials>;

beforeAll(async () => {
  t = await buildTestApp();
  creds = sharedCredentials(t);
  routes = routeTable(t.deps);
  matcher = new RouteMatcher(routes);
});
afterAll(async () => t.close());

const concrete = (path: string) => path.replace(/:[A-Za-z_]+/g, '1');
const urlsOf = (r: RouteDef) => [r.path, ...(r.aliases ?? [])].map(concrete);
const toggleSlash = (url: string) => (url.endsWith('/') ? url.slice(0, -1) : `${url}/`);

describe('route table', () => {
  it('lists every route once per method and path', () => {
    const seen = new Set<string>();
    for (const r of routes) {
      for (const url of [r.path, ...(r.aliases ?? [])]) {
        const key = `${r.method} ${url}`;
        expect(seen.has(key), key).toBe(false);
        seen.add(key);
      }
    }
    expect(seen.size).toBeGreaterThan(0);
  });

  it('keeps every route under /api', () => {
    for (const r of routes) for (const url of urlsOf(r)) expect(url.startsWith('/api/')).toBe(true);
  });
});

describe('conventions on every route', () => {
  it('answers other methods with 405, an Allow header and no-store; GET never implies HEAD', async () => {
    for (const r of routes) {
      for (const url of urlsOf(r)) {
        const allowed = matcher.allowedMethods(url);
        for (const method of IMPLEMENTED_METHODS) {
          if (allowed.includes(method)) continue;
          const res = await t.app.inject({ method, url });
          expect(res.statusCode, `${method} ${url}`).toBe(405);
          if (method !== 'HEAD') expect(res.json()).toMatchObject({ code: 'method_not_allowed' });
          expect(res.headers.allow?.toString().split(', ').sort()).toEqual([...allowed].sort());
          expect(res.headers['cache-control']).toBe('no-store');
        }
      }
    }
  });

  it('answers methods outside the six with 501 not_implemented and no-store', async () => {
    for (const r of routes) {
      for (const url of urlsOf(r)) {
        for (const method of ['OPTIONS', 'PROPFIND', 'TRACE'] as const) {
          const res = await t.app.inject({ method, url });
          expect(res.statusCode, `${method} ${url}`).toBe(501);
          expect(res.json()).toMatchObject({ code: 'not_implemented' });
          expect(res.headers['cache-control']).toBe('no-store');
        }
      }
    }
  });

  it('adds no trailing-slash alias beyond the listed ones, and never redirects', async () => {
    for (const r of routes) {
      for (const url of urlsOf(r)) {
        const other = toggleSlash(url);
        if (matcher.allowedMethods(other).length > 0) continue;
        const res = await t.app.inject({ method: r.method, url: other });
        expect(res.statusCode, `${r.method} ${other}`).toBe(404);
        expect(res.headers.location).toBeUndefined();
        expect(res.headers['cache-control']).toBe('no-store');
      }
    }
  });

  it('refuses protected routes without credentials (401, no-store) before reading the body', async () => {
    for (const r of routes.filter((x) => x.auth === 'admin' || x.auth === 'node')) {
      for (const url of urlsOf(r)) {
        const res = await t.app.inject({
          method: r.method,
          url,
          headers: { 'content-type': 'text/plain' },
          payload: ['GET', 'HEAD', 'DELETE'].includes(r.method) ? undefined : 'not json',
        });
        expect(res.statusCode, `${r.method} ${url}`).toBe(401);
        expect(res.json()).toMatchObject({ code: 'unauthorized' });
        expect(res.headers['cache-control']).toBe('no-store');
      }
    }
  });

  it('requires a JSON media type on every body-carrying route (415)', async () => {
    for (const r of routes.filter(
      (x) => ['POST', 'PUT', 'PATCH'].includes(x.method) && !x.multipart,
    )) {
      const headers = await creds.for(r.auth);
      if (!headers) continue;
      for (const url of urlsOf(r)) {
        const res = await t.app.inject({
          method: r.method,
          url,
          headers: { ...headers, 'content-type': 'text/plain' },
          payload: '{}',
        });
        expect(res.statusCode, `${r.method} ${url}`).toBe(415);
        expect(res.json()).toMatchObject({ code: 'unsupported_media_type' });
        expect(res.headers['cache-control']).toBe('no-store');
      }
    }
  });

  it('answers every route with no-store', async () => {
    for (const r of routes) {
      for (const url of urlsOf(r)) {
        const headers = (await creds.for(r.auth)) ?? {};
        const res = await t.app.inject({ method: r.method, url, headers });
        creds.after(r.method, url);
        expect(res.headers['cache-control'], `${r.method} ${url}`).toBe('no-store');
        // A documented 503 (self-update unavailable in a checkout) is an answer, not a crash.
        if (res.statusCode === 503)
          expect(res.json()).toMatchObject({ code: 'dash_update_unavailable' });
        else expect(res.statusCode).toBeLessThan(500);
      }
    }
  });
});

describe('unknown paths', () => {
  it.each(['/api', '/api/', '/api/nope', '/api/version/extra', '/api/admin/unknown/'])(
    '%s is 404 not_found with no-store',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'not_found', message: expect.any(String) as string });
      expect(res.headers['cache-control']).toBe('no-store');
    },
  );
});
