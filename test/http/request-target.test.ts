import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, listenOnLoopback, type TestApp } from '../support/build-app.js';
import { adminHeaders } from '../support/credentials.js';
import { parseRaw, rawRequest } from '../support/raw-http.js';

/** Request targets only a raw socket can send: absolute-form (RFC 9112 §3.2.2) and friends. */
let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await buildTestApp();
  port = await listenOnLoopback(t.app);
});
afterAll(async () => t.close());

describe('absolute-form request targets', () => {
  it('answers an admin path with no-store, authenticated or not', async () => {
    const anon = parseRaw(
      await rawRequest(
        port,
        'GET http://example.com/api/admin/nodes/ HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n',
      ),
    );
    expect(anon.status).toBe(401);
    expect(anon.headers['cache-control']).toBe('no-store');

    const auth = await adminHeaders(t);
    const admin = parseRaw(
      await rawRequest(
        port,
        `GET http://example.com/api/admin/nodes/ HTTP/1.1\r\nHost: example.com\r\n` +
          `Authorization: ${auth.authorization}\r\nConnection: close\r\n\r\n`,
      ),
    );
    expect(admin.status).toBe(200);
    expect(admin.headers['cache-control']).toBe('no-store');
  });

  it('routes an absolute-form /api path like its origin form', async () => {
    for (const target of ['http://x/api/nowhere', 'HTTP://X:8080/api/version?y=1']) {
      const res = parseRaw(
        await rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
      );
      const origin = await t.app.inject({
        method: 'GET',
        url: target.replace(/^\w+:\/\/[^/]*/, ''),
      });
      expect(res.status, target).toBe(origin.statusCode);
      expect(res.headers['cache-control'], target).toBe('no-store');
      expect(res.headers['content-type'], target).toMatch(/^application\/json/);
    }
  });
});
