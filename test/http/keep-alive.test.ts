import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, listenOnLoopback, type TestApp } from '../support/build-app.js';

/**
 * Dash builds its own node:http server (for the fast lanes), so Fastify's connection settings
 * must be applied by hand: without them Node closes idle keep-alive connections after 5 s,
 * racing agents that report every few seconds.
 */
let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await buildTestApp();
  port = await listenOnLoopback(t.app);
});
afterAll(async () => t.close());

function get(path: string): Promise<{ status: number; keepAlive: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { connection: 'keep-alive' } });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, keepAlive: res.headers['keep-alive']?.toString() }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('keep-alive connections', () => {
  it("keeps idle connections open for Fastify's 72 s, not Node's 5 s", async () => {
    expect(t.app.server.keepAliveTimeout).toBe(72_000);
    const res = await get('/api/version');
    expect(res.status).toBe(200);
    expect(res.keepAlive).toBe('timeout=72');
  });

  it('applies to answers of the router for unknown paths too', async () => {
    const res = await get('/api/nowhere');
    expect(res.status).toBe(404);
    expect(res.keepAlive).toBe('timeout=72');
  });
});
