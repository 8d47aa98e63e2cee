import type BetterSqlite3 from 'better-sqlite3';
import type { OpenLogs } from './history-source.js';
import { INDEX_STEP_BYTES } from './open-log-index.js';
import { listNodeIds } from './raw-rows.js';

/**
 * Every node with history (in the open-block logs, in blocks or in raw rows), ascending, found
 * in steps the caller yields between: the logs' indexes are brought up to date at most
 * `INDEX_STEP_BYTES × stepScale()` bytes at a time (a minute of the other thread's records is
 * tens of MB), then the sealed history's node ids are listed `LIST_NODES_PER_STEP` at a time.
 * Done in one step, both held the ingest thread for 200–700 ms (docs/ingest-performance.md).
 *
 * The same nodes as listing everything at once: a node whose records are in a log is in its
 * index once that index has caught up, unless a seal rotated them out meanwhile; a seal commits
 * its blocks before it renames the log, so such a node is in the blocks listed afterwards.
 * Nothing is written, so a crash between steps repeats nothing but reading.
 */
export function* historyNodes(
  db: BetterSqlite3.Database,
  logs: OpenLogs | undefined,
  stepScale: () => number = () => 1,
): Generator<void, number[]> {
  const nodes = new Set<number>();
  for (const log of logs?.logs() ?? []) {
    while (!log.refreshStep(Math.ceil(INDEX_STEP_BYTES * stepScale()))) yield;
    for (const id of log.nodeIds()) nodes.add(id);
    yield;
  }
  for (const table of ['metrics_raw', 'metrics_blocks'] as const) {
    for (const id of yield* listNodeIds(db, table)) nodes.add(id);
  }
  return [...nodes].sort((a, b) => a - b);
}
