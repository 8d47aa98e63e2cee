import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryRepo, MetricsWrite } from '../../src/store/ports.js';
import {
  compactTask,
  MAX_MERGED_POINTS,
  SMALL_BLOCK_POINTS,
} from '../../src/store/sqlite/block-compaction.js';
import { deleteBlocksBefore } from '../../src/store/sqlite/history-budget.js';
import { BlockView } from '../../src/store/history-blocks/block-codec.js';
import { blockToRows, MAX_BLOCK_SPAN_MS, sealTask } from '../../src/store/sqlite/history-blocks.js';
import { historySource } from '../../src/store/sqlite/history-source.js';
import type { MetricsEngine } from '../../src/store/sqlite/metrics-engine.js';
import type { SqliteStore } from '../../src/store/sqlite/open.js';
import { rollupTask } from '../../src/store/sqlite/rollup-task.js';
import { historySnapshot } from '../support/history-snapshot.js';
import { metricsWrite, openHistoryStore } from '../support/metrics-writes.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);

let store: SqliteStore;
let engine: MetricsEngine;
let history: HistoryRepo;

beforeEach(() => {
  ({ store, engine, history } = openHistoryStore());
});
afterEach(async () => store.close());

/** Reports of `node` every `everyMs` (with a little jitter) for `minutes` from `from`. */
function ingest(node: number, from: number, minutes: number, everyMs: number): void {
  const writes: MetricsWrite[] = [];
  for (let i = 0; i < (minutes * MIN) / everyMs; i++) {
    writes.push(
      metricsWrite(node, from + i * everyMs + ((i * 37) % 11), { seq: i, deadline: Infinity }),
    );
  }
  engine.commitBatch(writes);
}

function drain<T>(gen: Generator<void, T>): T {
  for (;;) {
    const r = gen.next();
    if (r.done) return r.value;
  }
}

interface Stored {
  blocks: number;
  bytes: number;
  points: number;
}

function stored(node: number): Stored {
  return store.raw
    .prepare(
      `SELECT count(*) AS blocks, coalesce(sum(length(data)), 0) AS bytes,
         coalesce(sum(count), 0) AS points FROM metrics_blocks WHERE node_id = ?`,
    )
    .get(node) as Stored;
}

/**
 * Every point of every block as migrate-data copies it to PostgreSQL (copy-from-sqlite.ts reads
 * blocks with blockToRows), devices in a fixed order (their order within a report is not data).
 */
function blockPoints() {
  const blobs = store.raw
    .prepare('SELECT node_id, data FROM metrics_blocks ORDER BY node_id, t_start, id')
    .raw()
    .all() as Array<[number, Uint8Array]>;
  return blobs.flatMap(([node, data]) =>
    blockToRows(new BlockView(data)).map((r) => ({
      node,
      ...r,
      devices: [...r.devices].sort((a, b) => a.kind - b.kind || a.id - b.id),
    })),
  );
}

/** The per-day accounting agrees with the blocks themselves. */
function expectDaysAccountForBlocks(): void {
  const days = store.raw
    .prepare(
      'SELECT sum(bytes) AS bytes, sum(points) AS points, sum(blocks) AS blocks FROM metrics_block_days',
    )
    .get() as { bytes: number; points: number; blocks: number };
  const blocks = store.raw
    .prepare(
      'SELECT sum(length(data)) AS bytes, sum(count) AS points, count(*) AS blocks FROM metrics_blocks',
    )
    .get() as { bytes: number; points: number; blocks: number };
  expect(days).toEqual(blocks);
}

describe('block compaction', () => {
  it('merges a slow node’s small blocks per closed hour; reads answer the same points', async () => {
    ingest(1, T0, 180, MIN); // every 60 s: 5 points per 5-minute block
    ingest(2, T0, 60, 3000); // every 3 s: 100 points per block, not small
    const now = T0 + 180 * MIN + MIN;
    drain(sealTask(store.raw, now, 5 * MIN));
    const slowBefore = await historySnapshot(history, 1, T0 - MIN, T0 + 181 * MIN);
    const fastBefore = await historySnapshot(history, 2, T0 - MIN, T0 + 61 * MIN);
    const src = historySource(store.raw);
    const countBefore = src.count(1, T0, T0 + 180 * MIN);
    const before = stored(1);
    const fast = stored(2);
    const copied = blockPoints();
    expect(before).toMatchObject({ blocks: 36, points: 180 });

    const result = drain(compactTask(store.raw, now, 5 * MIN));

    const after = stored(1);
    expect(after.blocks).toBe(3); // one per hour
    expect(after.points).toBe(180);
    expect(after.bytes).toBeLessThan(before.bytes);
    expect(stored(2)).toEqual(fast);
    expect(result).toEqual({ merged: 36, written: 3, savedBytes: before.bytes - after.bytes });
    expect(await historySnapshot(history, 1, T0 - MIN, T0 + 181 * MIN)).toEqual(slowBefore);
    expect(await historySnapshot(history, 2, T0 - MIN, T0 + 61 * MIN)).toEqual(fastBefore);
    // Uptime counts reports per interval from the same source.
    expect(historySource(store.raw).count(1, T0, T0 + 180 * MIN)).toBe(countBefore);
    expect(historySource(store.raw).count(1, T0 + 10 * MIN, T0 + 70 * MIN)).toBe(60);
    expectDaysAccountForBlocks();
    expect(blockPoints()).toEqual(copied);
    const spans = store.raw
      .prepare('SELECT max(t_end - t_start) FROM metrics_blocks')
      .pluck()
      .get() as number;
    expect(spans).toBeLessThan(MAX_BLOCK_SPAN_MS);
    // The hours are done: a second run merges nothing.
    expect(drain(compactTask(store.raw, now + 5 * MIN, 5 * MIN)).merged).toBe(0);
  });

  it('leaves the hour still being sealed alone, and compacts it once closed', () => {
    ingest(1, T0, 90, MIN);
    drain(sealTask(store.raw, T0 + 90 * MIN + MIN, 5 * MIN));
    expect(drain(compactTask(store.raw, T0 + 90 * MIN + MIN, 5 * MIN)).written).toBe(1);
    expect(stored(1).blocks).toBe(1 + 6);
    // 11:00 closes when 11:55-12:00 is sealed, 10 s after noon.
    drain(sealTask(store.raw, T0 + 2 * HOUR + 10_000, 5 * MIN));
    expect(drain(compactTask(store.raw, T0 + 2 * HOUR + 9_999, 5 * MIN)).written).toBe(0);
    expect(drain(compactTask(store.raw, T0 + 2 * HOUR + 10_000, 5 * MIN)).written).toBe(1);
    expect(stored(1)).toMatchObject({ blocks: 2, points: 90 });
  });

  it('runs with the rollup job, driven by its clock', () => {
    ingest(1, T0, 120, MIN);
    const r = drain(rollupTask(store.raw, T0 + 2 * HOUR + MIN));
    expect(r.sealedPoints).toBe(120);
    expect(r.compactedBlocks).toBe(24);
    expect(stored(1).blocks).toBe(2);
  });

  it('does not merge blocks that overlap (a late report’s block) or large ones', async () => {
    ingest(1, T0, 60, MIN);
    drain(sealTask(store.raw, T0 + 20 * MIN, 5 * MIN));
    // A report received at 10:02:30 commits after its window was sealed: a second block.
    engine.commitBatch([metricsWrite(1, T0 + 150_000, { deadline: Infinity })]);
    drain(sealTask(store.raw, T0 + 61 * MIN, 5 * MIN));
    const q = { nodeId: 1, metric: 'cpu.usage_ratio', source: 'raw' as const };
    const read = () => history.points({ ...q, from: T0, to: T0 + HOUR, stepMs: 1, agg: 'last' });
    const before = await read();
    drain(compactTask(store.raw, T0 + 61 * MIN, 5 * MIN));
    expect(await read()).toEqual(before);
    expect(stored(1).points).toBe(61);
    expectDaysAccountForBlocks();
    expect(SMALL_BLOCK_POINTS).toBeLessThanOrEqual(MAX_MERGED_POINTS);
  });

  it('is atomic: a failure leaves the old blocks and their accounting', () => {
    ingest(1, T0, 60, MIN);
    drain(sealTask(store.raw, T0 + 61 * MIN, 5 * MIN));
    const snapshot = () => ({
      blocks: store.raw
        .prepare('SELECT id, t_start, count, data FROM metrics_blocks ORDER BY id')
        .all(),
      days: store.raw.prepare('SELECT * FROM metrics_block_days').all(),
    });
    const before = snapshot();
    const last = (before.blocks.at(-1) as { id: number }).id;
    // Fails the merge after the new block is inserted and some old ones are deleted.
    store.raw.exec(
      `CREATE TEMP TRIGGER fail_compaction BEFORE DELETE ON metrics_blocks WHEN old.id = ${last}
       BEGIN SELECT RAISE(ABORT, 'disk full'); END`,
    );
    expect(() => drain(compactTask(store.raw, T0 + 61 * MIN, 5 * MIN))).toThrow(/disk full/);
    expect(snapshot()).toEqual(before);
    store.raw.exec('DROP TRIGGER fail_compaction');
    expect(drain(compactTask(store.raw, T0 + 61 * MIN, 5 * MIN)).written).toBe(1);
    expectDaysAccountForBlocks();
  });

  it('keeps retention by whole blocks: a merged hour goes once its newest point is past', () => {
    ingest(1, T0, 120, MIN);
    drain(sealTask(store.raw, T0 + 121 * MIN, 5 * MIN));
    drain(compactTask(store.raw, T0 + 121 * MIN, 5 * MIN));
    const drop = deleteBlocksBefore(store.raw, 100);
    expect(store.raw.transaction(() => drop(1, T0 + 30 * MIN))()).toEqual({ blocks: 0, points: 0 });
    expect(store.raw.transaction(() => drop(1, T0 + HOUR))()).toEqual({ blocks: 1, points: 60 });
    expect(stored(1)).toMatchObject({ blocks: 1, points: 60 });
    expectDaysAccountForBlocks();
  });
});
