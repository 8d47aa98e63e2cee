import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type BetterSqlite3 from 'better-sqlite3';
import type { MetricsWrite } from '../../../src/store/ports.js';
import { MetricsEngine } from '../../../src/store/sqlite/metrics-engine.js';
import { OpenLogFile } from '../../../src/store/sqlite/open-log.js';
import { OpenLogCommitter } from '../../../src/store/sqlite/open-log-committer.js';
import { INDEX_STEP_BYTES } from '../../../src/store/sqlite/open-log-index.js';
import { OpenLogReaders, openLogPath } from '../../../src/store/sqlite/open-logs.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/open.js';
import { rollupTask } from '../../../src/store/sqlite/rollup-task.js';
import { tempHome } from '../../support/build-app.js';
import { metricsWrite } from '../../support/metrics-writes.js';

const Q = Date.UTC(2026, 10, 21, 10, 0, 0);
const M15 = 15 * 60_000;
const NODES = 120;
/** After the quarter [Q, Q + 15 min) closed, before the next. */
const NOW = Q + M15 + 60_000;
/** Steps a sixteenth of their full size, as the pacer makes them on a loaded machine. */
const SCALE = 1 / 16;

/**
 * Every node reports every 30 s through the quarter, to one of two ingest threads by node id:
 * per shard, its batches in order (the device ids each store gives out follow that order).
 */
function batches(shard: number): MetricsWrite[][] {
  const out: MetricsWrite[][] = [];
  for (let at = Q + 1000; at < Q + M15; at += 30_000) {
    const ids = Array.from({ length: NODES }, (_, i) => i + 1).filter((id) => id % 2 === shard);
    out.push(
      ids.map((id) => metricsWrite(id, at + id, { seq: at / 1000 + id, deadline: Infinity })),
    );
  }
  return out;
}

const rollups = (db: BetterSqlite3.Database) =>
  db.prepare('SELECT id, data FROM metrics_15m ORDER BY id').all();

let home: string;
let onLogs: SqliteStore;
let logs: OpenLogFile[];

beforeEach(() => {
  home = tempHome();
  const path = join(home, 'dash.db');
  onLogs = openSqliteStore(path, Q);
  logs = [0, 1].map((shard) => OpenLogFile.open(openLogPath(path, shard), { shard, from: 0 }));
  const committers = logs.map((log) => new OpenLogCommitter(onLogs.raw, log, () => Q));
  for (const shard of [0, 1]) for (const b of batches(shard)) committers[shard]!.commitBatch(b);
});
afterEach(async () => {
  for (const log of logs) log.close();
  await onLogs.close();
});

/** Runs a rollup over the logs; returns, per step, the log bytes it indexed. */
function indexedPerStep(
  readers: OpenLogReaders,
  stop: (steps: number[]) => boolean = () => false,
): number[] {
  const indexed = () => readers.logs().reduce((n, l) => n + l.size.bytes, 0);
  const gen = rollupTask(onLogs.raw, NOW, undefined, readers, () => SCALE);
  const steps: number[] = [];
  for (let before = indexed(); !stop(steps);) {
    const r = gen.next();
    steps.push(indexed() - before);
    before = indexed();
    if (r.done) break;
  }
  return steps;
}

describe('a rollup of nodes whose history is only in the open-block logs', () => {
  it('indexes the logs in bounded steps and rolls up what raw rows roll up', () => {
    const readers = new OpenLogReaders(join(home, 'dash.db'));
    const steps = indexedPerStep(readers);
    const total = logs.reduce((n, l) => n + l.size, 0);
    // Headers (24 bytes each) are read with a log's first step.
    expect(Math.max(...steps)).toBeLessThanOrEqual(INDEX_STEP_BYTES * SCALE + 24);
    expect(steps.filter((b) => b > 0).length).toBeGreaterThanOrEqual(
      Math.ceil(total / (INDEX_STEP_BYTES * SCALE)),
    );
    expect(steps.reduce((a, b) => a + b, 0)).toBe(total);
    readers.close();

    // The same reports as raw rows (no log): the same 15-minute rows.
    const rows = openSqliteStore(':memory:', Q);
    const engine = new MetricsEngine(rows.raw, () => Q);
    for (const shard of [0, 1]) for (const b of batches(shard)) engine.commitBatch(b);
    const gen = rollupTask(rows.raw, NOW);
    while (!gen.next().done);
    const expected = rollups(rows.raw);
    expect(expected).toHaveLength(NODES);
    expect(rollups(onLogs.raw)).toEqual(expected);
    void rows.close();
  });

  it('rolls up the same after a crash between its index steps (it only repeats reading)', () => {
    const cut = new OpenLogReaders(join(home, 'dash.db'));
    // Stopped after its third step that indexed some of the logs.
    const first = indexedPerStep(cut, (b) => b.filter((n) => n > 0).length === 3);
    expect(first.reduce((a, b) => a + b, 0)).toBeLessThan(logs[0]!.size);
    cut.close();
    expect(rollups(onLogs.raw)).toEqual([]);
    const readers = new OpenLogReaders(join(home, 'dash.db'));
    indexedPerStep(readers);
    readers.close();
    expect(rollups(onLogs.raw)).toHaveLength(NODES);
  });
});
