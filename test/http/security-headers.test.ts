import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../src/http/server.js';
import { createSpaHandler } from '../../src/http/static/spa.js';
import { silentLogger } from '../../src/platform/logger.js';
import { buildTestApp, type TestApp } from '../support/build-app.js';
import { seedNode } from '../support/seed-nodes.js';

/** The web UI and /deploy cannot be framed, sniffed or made to run foreign code. */
function expectPageHeaders(headers: Record<string, unknown>, what: string) {
  const csp = String(headers['content-security-policy']);
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toContain("script-src 'self'");
  expect(csp, what).toContain("default-src 'self'");
  expect(csp, what).not.toContain('unsafe-inline');
  expect(headers['x-frame-options'], what).toBe('DENY');
  expect(headers['x-content-type-options'], what).toBe('nosniff');
}

describe('web UI', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    const root = join(mkdtempSync(join(tmpdir(), 'dash-csp-')), 'dist');
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(join(root, 'index.html'), '<!doctype html>');
    writeFileSync(join(root, 'assets', 'index-a.js'), '1');
    app = createHttpServer({
      logger: silentLogger,
      routes: [],
      guards: {},
      fallback: createSpaHandler({ root }),
    });
    await app.ready();
  });
  afterAll(async () => app.close());

  it.each(['/', '/nodes/3', '/assets/index-a.js', '/assets/missing.js', '/nope.txt'])(
    'sends the page security headers on %s',
    async (url) => {
      const res = await app.inject({ method: 'GET', url });
      expectPageHeaders(res.headers, url);
    },
  );
});

describe('/deploy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    mkdirSync(join(t.config.home, 'deploy', 'linux'), { recursive: true });
    writeFileSync(join(t.config.home, 'deploy', 'linux', 'node_linux_amd64'), 'agent');
  });
  afterAll(async () => t.close());

  it('sends them on install scripts, assets and refusals', async () => {
    const { secret } = await seedNode(t);
    for (const [url, headers, status] of [
      ['/deploy/linux/install.sh', {}, 200],
      ['/deploy/linux/node_linux_amd64', { 'x-node-secret': secret }, 200],
      ['/deploy/linux/node_linux_amd64', {}, 401],
      ['/deploy/linux/missing', { 'x-node-secret': secret }, 404],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode, url).toBe(status);
      expectPageHeaders(res.headers, url);
    }
  });
});
