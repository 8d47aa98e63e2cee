import type BetterSqlite3 from 'better-sqlite3';
import { sealAll } from '../history-blocks.js';

/**
 * Raw history as compressed column blocks (issue 22, store/sqlite/history-blocks.ts).
 *
 * `metrics_blocks` holds one row per node and sealed window: the window's reports as columns
 * (store/history-blocks/block-codec.ts), first and last receive time and the point count; the index
 * finds a node's blocks by start time (a block spans at most an hour). `metrics_raw` stays as
 * the open block. `metrics_block_days` counts the bytes and points sealed per UTC day, so the
 * size budget and the growth figure never scan blocks.
 *
 * `run` converts every existing raw row of a closed window into blocks, keeping every point;
 * rows of the still-open window stay raw and are sealed by the rollup job like new ones.
 */
export const up = [
  `CREATE TABLE metrics_blocks (
    id INTEGER PRIMARY KEY,
    node_id INTEGER NOT NULL,
    t_start INTEGER NOT NULL,
    t_end INTEGER NOT NULL,
    count INTEGER NOT NULL,
    data BLOB NOT NULL
  ) STRICT`,
  `CREATE INDEX metrics_blocks_node ON metrics_blocks (node_id, t_start, t_end)`,
  `CREATE TABLE metrics_block_days (
    day INTEGER PRIMARY KEY,
    bytes INTEGER NOT NULL,
    points INTEGER NOT NULL,
    blocks INTEGER NOT NULL
  ) STRICT`,
];

export function run(db: BetterSqlite3.Database, now: number): void {
  sealAll(db, now);
}
