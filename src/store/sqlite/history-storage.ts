import type BetterSqlite3 from 'better-sqlite3';
import type { HistoryStorageRepo } from '../ports.js';
import { DAY_MS } from './history-blocks.js';
import type { OpenLogReaders } from './open-logs.js';
import { blockDays, budgetState, usedBytes } from './history-budget.js';

/** Storage facts from page counts and the day ledger: nothing here scans history. */
export function sqliteHistoryStorage(
  db: BetterSqlite3.Database,
  logs?: OpenLogReaders,
): HistoryStorageRepo {
  const openRows = db.prepare('SELECT count(*) FROM metrics_raw').pluck();
  const oldest = db.prepare('SELECT min(t_start) FROM metrics_blocks').pluck();
  const oldestOpen = db.prepare('SELECT min(received_at) FROM metrics_raw').pluck();
  // Pages of the open block, index pages included: the same walk over its pages as count(*).
  const openBytes = db
    .prepare("SELECT coalesce(sum(pgsize), 0) FROM dbstat('main', 1) WHERE name = 'metrics_raw'")
    .pluck();
  return {
    async facts() {
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      const pages = db.pragma('page_count', { simple: true }) as number;
      const days = blockDays(db);
      const budget = budgetState(db);
      // The open block is the raw rows plus the unsealed samples in the open-block logs.
      const log = logs?.size() ?? { records: 0, bytes: 0 };
      return {
        databaseBytes: pages * pageSize,
        usedBytes: usedBytes(db),
        rawBytes: days.reduce((n, d) => n + d.bytes, 0),
        rawPoints: days.reduce((n, d) => n + d.points, 0),
        // Before the first seal the oldest report is still open.
        rawOldestAt:
          (oldest.get() as number | null) ??
          (oldestOpen.get() as number | null) ??
          logs?.oldest() ??
          undefined,
        openRows: (openRows.get() as number) + log.records,
        openBytes: (openBytes.get() as number) + log.bytes,
        days: days.map((d) => ({ day: d.day * DAY_MS, bytes: d.bytes, points: d.points })),
        budgetCutoff: budget.cutoff,
        budgetOver: budget.over,
      };
    },
  };
}
