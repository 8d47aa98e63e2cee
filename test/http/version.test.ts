import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_VERSION } from '../../src/agent/version.js';
import { buildTestApp, type TestApp } from '../support/build-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/version/', () => {
  it('reports the bundled node agent version', async () => {
    for (const url of ['/api/version/', '/api/version']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ version: t.deps.versions.dash, node_version: AGENT_VERSION });
    }
    expect(AGENT_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
