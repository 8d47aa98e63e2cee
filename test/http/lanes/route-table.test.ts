import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { routeTable } from '../../../src/http/route-table.js';
import { buildTestApp, type TestApp } from '../../support/build-app.js';

/** Fast lanes are registered through the route table: each sits beside the route it serves. */

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => t.close());

describe('fast lanes in the route table', () => {
  it('belong to the hot routes only', () => {
    const laned = routeTable(t.deps)
      .filter((r) => r.lane !== undefined)
      .map((r) => `${r.method} ${r.path}`);
    expect(laned.sort()).toEqual(['GET /api/front/metrics', 'POST /api/node/metrics']);
  });

  it('the front metrics route and its lane share one snapshot cache across tables', () => {
    const shared = {};
    routeTable(t.deps, shared);
    const first = (shared as { frontMetrics?: unknown }).frontMetrics;
    routeTable(t.deps, shared);
    expect(first).toBeDefined();
    expect((shared as { frontMetrics?: unknown }).frontMetrics).toBe(first);
  });
});
