import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SqliteStore } from '../../src/store/sqlite/open.js';
import type { MetricsEngine } from '../../src/store/sqlite/metrics-engine.js';
import { OLDEST_NODES_PER_STEP, rollupTask } from '../../src/store/sqlite/rollup-task.js';
import { LIST_NODES_PER_STEP } from '../../src/store/sqlite/raw-rows.js';
import { historyNodes } from '../../src/store/sqlite/rollup-nodes.js';
import { metricsWrite, openHistoryStore } from '../support/metrics-writes.js';

const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
const M15 = 15 * 60_000;
const NODES = 600;

let store: SqliteStore;
let engine: MetricsEngine;

beforeEach(() => {
  ({ store, engine } = openHistoryStore());
});
afterEach(async () => store.close());

/** Runs the task to its end; returns, per step, how many nodes' oldest point were looked up. */
function lookupsPerStep(now: number, scale = 1): number[] {
  // Node ids looked up, once each per step (a statement may be wrapped more than once).
  let looked = new Set<unknown>();
  const prepare = store.raw.prepare.bind(store.raw);
  const spy = vi.spyOn(store.raw, 'prepare').mockImplementation((sql: string) => {
    const stmt = prepare(sql);
    if (sql === 'SELECT min(received_at) FROM metrics_raw WHERE node_id = ?') {
      const get = stmt.get.bind(stmt);
      Object.assign(stmt, {
        get: (...args: unknown[]) => {
          looked.add(args[0]);
          return get(...args);
        },
      });
    }
    return stmt;
  });
  const steps: number[] = [];
  const gen = rollupTask(store.raw, now, undefined, undefined, () => scale);
  try {
    for (;;) {
      looked = new Set();
      const r = gen.next();
      steps.push(looked.size);
      if (r.done) return steps;
    }
  } finally {
    spy.mockRestore();
  }
}

describe('rollup steps (the ingest thread holds the write slot for one step)', () => {
  beforeEach(() => {
    const ids = Array.from({ length: NODES }, (_, i) => i + 1);
    engine.commitBatch(ids.map((id) => metricsWrite(id, T0 + id, { deadline: Infinity })));
  });

  it(`look up the oldest point of at most ${OLDEST_NODES_PER_STEP} nodes per step`, () => {
    const steps = lookupsPerStep(T0 + M15 + 60_000);
    expect(steps.reduce((a, b) => a + b, 0)).toBe(NODES);
    expect(Math.max(...steps)).toBeLessThanOrEqual(OLDEST_NODES_PER_STEP);
  });

  it('look up fewer nodes per step while the pacer has cut the steps down', () => {
    const steps = lookupsPerStep(T0 + M15 + 60_000, 1 / 16);
    expect(steps.reduce((a, b) => a + b, 0)).toBe(NODES);
    expect(Math.max(...steps)).toBe(Math.round(OLDEST_NODES_PER_STEP / 16));
  });

  it('look up nothing when no 15-minute bucket has closed since the last run', () => {
    lookupsPerStep(T0 + M15 + 60_000);
    const steps = lookupsPerStep(T0 + M15 + 120_000);
    expect(steps.reduce((a, b) => a + b, 0)).toBe(0);
  });
});

describe("the rollup's node list", () => {
  it(`lists at most ${LIST_NODES_PER_STEP} nodes of the sealed history per step`, () => {
    const count = 2 * LIST_NODES_PER_STEP + 500;
    const insert = store.raw.prepare(
      'INSERT INTO metrics_raw (node_id, received_at) VALUES (?, ?)',
    );
    store.raw.transaction(() => {
      for (let id = 1; id <= count; id++) insert.run(id, T0 + id);
    })();
    let listed = 0;
    const prepare = store.raw.prepare.bind(store.raw);
    const spy = vi.spyOn(store.raw, 'prepare').mockImplementation((sql: string) => {
      const stmt = prepare(sql);
      if (sql.startsWith('SELECT node_id FROM metrics_raw WHERE node_id > ?')) {
        const get = stmt.get.bind(stmt);
        Object.assign(stmt, {
          get: (...args: unknown[]) => {
            listed++;
            return get(...args);
          },
        });
      }
      return stmt;
    });
    try {
      const gen = historyNodes(store.raw, undefined);
      const perStep: number[] = [];
      for (;;) {
        listed = 0;
        const r = gen.next();
        perStep.push(listed);
        if (r.done) {
          expect(r.value).toEqual(Array.from({ length: count }, (_, i) => i + 1));
          break;
        }
      }
      // One look-up more than the ids: the one that finds the end.
      expect(perStep.reduce((a, b) => a + b, 0)).toBe(count + 1);
      expect(Math.max(...perStep)).toBeLessThanOrEqual(LIST_NODES_PER_STEP);
    } finally {
      spy.mockRestore();
    }
  });
});
