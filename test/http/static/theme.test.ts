import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

describe('public /theme routes on a fresh install', () => {
  it('serves an empty text/css active.css (GET and HEAD), never cached', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await t.app.inject({ method, url: '/theme/active.css' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toBe('');
    }
  });

  it('answers 404 for active.json while the default look is active', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/theme/active.json' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('never hands a /theme path to the SPA fallback', async () => {
    for (const url of ['/theme/other.css', '/theme/preview/x.png', '/theme/a/b', '/theme/']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    }
  });
});
