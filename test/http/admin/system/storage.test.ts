import { afterEach, describe, expect, it } from 'vitest';
import type { StorageStatus } from '../../../../src/protocol/api/storage.js';
import type { MetricsWrite } from '../../../../src/store/ports.js';
import { MetricsEngine } from '../../../../src/store/sqlite/metrics-engine.js';
import { buildTestApp, type TestApp } from '../../../support/build-app.js';
import { adminHeaders } from '../../../support/credentials.js';
import { metricsWrite } from '../../../support/metrics-writes.js';

const URL = '/api/admin/system/storage';
type Storage = StorageStatus;
const DAY = 86_400_000;
let t: TestApp | undefined;
afterEach(async () => t?.close());

/** Three days of one node's reports every 60 s up to the fake clock's now, then sealed. */
async function withHistory(app: TestApp): Promise<void> {
  const now = app.clock.now();
  const start = Math.floor(now / DAY) * DAY - 3 * DAY;
  const writes: MetricsWrite[] = [];
  for (let at = start; at < now; at += 60_000) {
    writes.push(metricsWrite(1, at, { seq: at / 60_000, deadline: Infinity }));
  }
  new MetricsEngine(app.raw, () => 0).commitBatch(writes);
  await app.deps.ingestBackend.rollup(now);
}

describe('GET /api/admin/system/storage', () => {
  it('needs an admin', async () => {
    t = await buildTestApp();
    const res = await t.app.inject({ method: 'GET', url: URL });
    expect(res.statusCode).toBe(401);
    expect(res.json<{ code: string }>().code).toBe('unauthorized');
  });

  it('shows database size, raw history, growth per day and no budget by default', async () => {
    t = await buildTestApp();
    await withHistory(t);
    const res = await t.app.inject({ method: 'GET', url: URL, headers: await adminHeaders(t) });
    expect(res.statusCode).toBe(200);
    const body = res.json<Storage>();
    expect(body.database_bytes).toBeGreaterThanOrEqual(body.used_bytes);
    expect(body.raw_history.points).toBeGreaterThan(3 * 1400);
    expect(body.raw_history.bytes_per_report).toBeGreaterThan(0);
    // One report a minute: 5-minute blocks of 5 points each, still far below a raw row (~230 B).
    expect(body.raw_history.bytes_per_report).toBeLessThan(150);
    expect(body.raw_history.oldest_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(body.growth_bytes_per_day).toBeGreaterThan(0);
    expect(body.budget).toEqual({
      max_bytes: null,
      state: 'none',
      raw_retention_days: 8,
      raw_kept_from: null,
      days_until_full: null,
    });
  });

  it('counts reports not yet sealed, so a new install does not show an empty history', async () => {
    t = await buildTestApp();
    const now = t.clock.now();
    const writes = Array.from({ length: 40 }, (_, i) =>
      metricsWrite(1, now - 40_000 + i * 1000, { seq: i, deadline: Infinity }),
    );
    new MetricsEngine(t.raw, () => 0).commitBatch(writes);
    const body = (
      await t.app.inject({ method: 'GET', url: URL, headers: await adminHeaders(t) })
    ).json<Storage>();
    expect(body.raw_history.bytes).toBe(0);
    expect(body.raw_history.open_rows).toBe(40);
    // 40 raw rows take at least a page, and far less than a page per row.
    expect(body.raw_history.open_bytes).toBeGreaterThanOrEqual(4096);
    expect(body.raw_history.open_bytes).toBeLessThan(40 * 4096);
    expect(body.raw_history.oldest_at).toBe(
      new Date(now - 40_000).toISOString().replace(/\.\d+Z$/, 'Z'),
    );
  });

  it('warns when the budget shortened raw retention or cannot be met', async () => {
    t = await buildTestApp({ DASH_HISTORY_MAX_BYTES: '1M' });
    await withHistory(t);
    const admin = await adminHeaders(t);
    const before = (
      await t.app.inject({ method: 'GET', url: URL, headers: admin })
    ).json<Storage>();
    expect(before.budget.state).toBe('ok');
    expect(before.budget.max_bytes).toBe(2 ** 20);
    await t.deps.ingestBackend.retention(t.clock.now(), 8, 2 ** 20);
    const after = (await t.app.inject({ method: 'GET', url: URL, headers: admin })).json<Storage>();
    expect(['shortened', 'over']).toContain(after.budget.state);
    expect(after.budget.raw_kept_from).toMatch(/Z$/);
    expect(after.raw_history.points).toBeLessThan(before.raw_history.points);
  });
});
