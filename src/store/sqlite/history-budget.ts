import type BetterSqlite3 from 'better-sqlite3';
import { DAY_MS, dayAccounting } from './history-blocks.js';
import { BUDGET_CUTOFF, BUDGET_OVER, MIN_RAW_DAYS, budgetCutoff } from '../history/budget-rule.js';
import { watermarks } from './metrics-jobs-state.js';

/**
 * The history size budget on SQLite (the rule: store/history/budget-rule.ts). Sizes come from
 * `metrics_block_days` (bytes sealed per UTC day, kept by seal and retention) and the
 * database's page counts, so a run never scans blocks.
 */
export { BUDGET_CUTOFF, BUDGET_OVER, MIN_RAW_DAYS };

export interface BlockDay {
  day: number;
  bytes: number;
  points: number;
  blocks: number;
}

/** Bytes of the database in use (pages not on the free list). */
export function usedBytes(db: BetterSqlite3.Database): number {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pages = db.pragma('page_count', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  return (pages - free) * pageSize;
}

export function blockDays(db: BetterSqlite3.Database): BlockDay[] {
  return db
    .prepare('SELECT day, bytes, points, blocks FROM metrics_block_days ORDER BY day')
    .all() as BlockDay[];
}

export interface BudgetState {
  /** Raw history is cut at this time instead of the configured retention. */
  cutoff: number | undefined;
  over: boolean;
}

export function budgetState(db: BetterSqlite3.Database): BudgetState {
  const wm = watermarks(db);
  return { cutoff: wm.get(BUDGET_CUTOFF), over: wm.get(BUDGET_OVER) === 1 };
}

/**
 * The raw cutoff the budget needs, later than `configuredCutoff`, or undefined when the
 * configured retention fits (or no budget is set). Records the state for the admin API.
 */
export function budgetRawCutoff(
  db: BetterSqlite3.Database,
  now: number,
  configuredCutoff: number,
  maxBytes: number | undefined,
): number | undefined {
  const clear = db.prepare('DELETE FROM metrics_jobs WHERE name IN (?, ?)');
  if (maxBytes === undefined) {
    clear.run(BUDGET_CUTOFF, BUDGET_OVER);
    return undefined;
  }
  const { cutoff, over } = budgetCutoff({
    now,
    configuredCutoff,
    maxBytes,
    usedBytes: usedBytes(db),
    days: blockDays(db).map((d) => ({ day: d.day * DAY_MS, bytes: d.bytes })),
  });
  const wm = watermarks(db);
  if (cutoff === undefined) {
    clear.run(BUDGET_CUTOFF, BUDGET_OVER);
    if (over) wm.set(BUDGET_OVER, 1);
    return undefined;
  }
  wm.set(BUDGET_CUTOFF, cutoff);
  wm.set(BUDGET_OVER, over ? 1 : 0);
  return cutoff;
}

/**
 * Deletes up to `limit` whole blocks of a node whose newest point is before `cutoff`. A block
 * that straddles the cutoff stays whole until its newest point passes it (at most one seal
 * interval of extra points, an hour for a compacted block; reads filter by range anyway).
 */
export function deleteBlocksBefore(db: BetterSqlite3.Database, limit: number) {
  const select = db
    .prepare(
      `SELECT id, t_start, length(data), count FROM metrics_blocks
       WHERE node_id = ? AND t_start < ? AND t_end < ? ORDER BY t_start LIMIT ${limit}`,
    )
    .raw(true);
  const remove = db.prepare('DELETE FROM metrics_blocks WHERE id = ?');
  const dropEmpty = db.prepare('DELETE FROM metrics_block_days WHERE blocks <= 0');
  const account = dayAccounting(db);
  return (nodeId: number, cutoff: number): { blocks: number; points: number } => {
    const rows = select.all(nodeId, cutoff, cutoff) as Array<[number, number, number, number]>;
    let points = 0;
    for (const [id, tStart, bytes, count] of rows) {
      remove.run(id);
      account(tStart, -bytes, -count, -1);
      points += count;
    }
    if (rows.length > 0) dropEmpty.run();
    return { blocks: rows.length, points };
  };
}
