import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MetricsWrite } from '../../src/store/ports.js';
import { sealAll } from '../../src/store/sqlite/history-blocks.js';
import {
  MIN_RAW_DAYS,
  blockDays,
  budgetState,
  usedBytes,
} from '../../src/store/sqlite/history-budget.js';
import type { MetricsEngine } from '../../src/store/sqlite/metrics-engine.js';
import type { SqliteStore } from '../../src/store/sqlite/open.js';
import { retentionTask } from '../../src/store/sqlite/retention-task.js';
import { metricsWrite, openHistoryStore } from '../support/metrics-writes.js';

const DAY = 86_400_000;
const MIN = 60_000;
const DAY0 = Date.UTC(2026, 10, 10);
const NOW = DAY0 + 6 * DAY + 12 * 3_600_000;

let store: SqliteStore;
let engine: MetricsEngine;

beforeEach(() => {
  ({ store, engine } = openHistoryStore());
  // One node reporting every 30 s for six and a half days, then sealed into blocks.
  const writes: MetricsWrite[] = [];
  for (let t = DAY0; t < NOW; t += 30_000) {
    writes.push(metricsWrite(1, t, { seq: t / 30_000, deadline: Infinity }));
  }
  engine.commitBatch(writes);
  sealAll(store.raw, NOW);
});
afterEach(async () => store.close());

function run(now: number, rawDays: number, maxBytes?: number) {
  const gen = retentionTask(store.raw, engine.devices, now, rawDays, { maxBytes });
  for (;;) {
    const r = gen.next();
    if (r.done) return r.value;
  }
}

const oldest = () =>
  (store.raw.prepare('SELECT min(t_start) AS t FROM metrics_blocks').get() as { t: number }).t;

describe('raw retention on blocks', () => {
  it('drops whole blocks past the cutoff and keeps the one that straddles it', () => {
    const cutoff = NOW - 5 * DAY;
    const r = run(NOW, 5);
    expect(r.blocks).toBeGreaterThan(0);
    expect(r.budgetCutoff).toBeUndefined();
    const left = store.raw
      .prepare('SELECT t_start, t_end FROM metrics_blocks ORDER BY t_start LIMIT 1')
      .get() as { t_start: number; t_end: number };
    expect(left.t_end).toBeGreaterThanOrEqual(cutoff);
    expect(left.t_start).toBeGreaterThan(cutoff - 5 * MIN);
    // The day ledger follows: bytes and points of what is left.
    const ledger = blockDays(store.raw);
    const sums = store.raw
      .prepare('SELECT sum(length(data)) AS bytes, sum(count) AS points FROM metrics_blocks')
      .get() as { bytes: number; points: number };
    expect(ledger.reduce((n, d) => n + d.bytes, 0)).toBe(sums.bytes);
    expect(ledger.reduce((n, d) => n + d.points, 0)).toBe(sums.points);
    expect(ledger[0]!.day).toBe(Math.floor(left.t_start / DAY));
  });
});

describe('history_max_bytes', () => {
  it('keeps the configured retention while the database fits', () => {
    const r = run(NOW, 8, usedBytes(store.raw) + 1_000_000);
    expect(r.budgetCutoff).toBeUndefined();
    expect(oldest()).toBe(DAY0);
    expect(budgetState(store.raw)).toEqual({ cutoff: undefined, over: false });
  });

  it('shortens raw retention by whole days, oldest first, when the database would pass it', () => {
    const days = blockDays(store.raw);
    // Room for everything but the two oldest days' blocks.
    const budget = usedBytes(store.raw) - days[0]!.bytes - days[1]!.bytes + 10;
    const r = run(NOW, 8, budget);
    expect(r.budgetCutoff).toBe(DAY0 + 2 * DAY);
    expect(oldest()).toBeGreaterThanOrEqual(DAY0 + 2 * DAY - 5 * MIN);
    expect(budgetState(store.raw)).toEqual({ cutoff: DAY0 + 2 * DAY, over: false });
    // Without a budget the state is cleared again.
    run(NOW, 8);
    expect(budgetState(store.raw)).toEqual({ cutoff: undefined, over: false });
  });

  it('never keeps less than a day of raw history, and says it is over budget', () => {
    // Smaller than the database without any raw history.
    const raw = blockDays(store.raw).reduce((n, d) => n + d.bytes, 0);
    const r = run(NOW, 8, usedBytes(store.raw) - raw - 1);
    expect(r.budgetCutoff).toBe(NOW - MIN_RAW_DAYS * DAY);
    expect(budgetState(store.raw)).toEqual({ cutoff: NOW - DAY, over: true });
    expect(oldest()).toBeGreaterThan(NOW - DAY - 10 * MIN);
  });
});
