import type pg from 'pg';
import type { HistoryStorageRepo } from '../ports.js';
import { BUDGET_CUTOFF, BUDGET_OVER } from '../history/budget-rule.js';
import { historyNodeIds, oldestReport } from './history-rollup.js';
import { rawDays, schemaBytes } from './history-retention.js';

/**
 * Storage facts on PostgreSQL (GET /api/admin/system/storage) from the catalog: the size of
 * Dash's tables (indexes and TOAST included) for the database figures, each raw day partition's
 * size and row count (the planner's, see rawDays) for the day list. PostgreSQL has no sealed
 * blocks and no open block: every stored report is a raw row of its day, so `openRows` and
 * `openBytes` are 0.
 */
export function postgresHistoryStorage(pool: pg.Pool): HistoryStorageRepo {
  return {
    async facts() {
      const bytes = await schemaBytes(pool);
      const days = (await rawDays(pool)).filter((d) => d.points > 0);
      const state = await pool.query<{ name: string; watermark: number }>(
        'SELECT name, watermark FROM metrics_jobs WHERE name = ANY($1::text[])',
        [[BUDGET_CUTOFF, BUDGET_OVER]],
      );
      const get = (name: string) => state.rows.find((r) => r.name === name)?.watermark;
      return {
        databaseBytes: bytes,
        usedBytes: bytes,
        rawBytes: days.reduce((n, d) => n + d.bytes, 0),
        rawPoints: days.reduce((n, d) => n + d.points, 0),
        rawOldestAt: await oldestReport(pool, await historyNodeIds(pool)),
        openRows: 0,
        openBytes: 0,
        days: days.map((d) => ({ day: d.day, bytes: d.bytes, points: d.points })),
        budgetCutoff: get(BUDGET_CUTOFF),
        budgetOver: get(BUDGET_OVER) === 1,
      };
    },
  };
}
