import type pg from 'pg';
import type { HistoryPartitions } from '../ports.js';
import { dropPartitionsBefore, ensurePartitionsAhead } from './partitions.js';
import type { PartitionGuard } from './partition-guard.js';

/**
 * Transaction-level advisory lock: one instance maintains partitions at a time. Advisory locks
 * are database-wide, so the key names the schema: an install in another schema of the same
 * database (tests run side by side, several installs) never makes this one skip its turn.
 */
export const PARTITIONS_LOCK_SQL = "hashtext('dash.partitions.' || current_schema())";

/**
 * The partition job's work on PostgreSQL: today's and the next days' partitions of every
 * partitioned history table, and raw history partitions whose whole day is past the raw
 * retention dropped. Runs in one transaction under an advisory lock; an instance that finds
 * the lock taken skips its turn (another instance is doing the same work).
 */
export function postgresHistoryPartitions(pool: pg.Pool, guard: PartitionGuard): HistoryPartitions {
  return {
    async maintain(now, rawRetentionDays) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const lock = await client.query<{ ok: number }>(
          `SELECT pg_try_advisory_xact_lock(${PARTITIONS_LOCK_SQL}) AS ok`,
        );
        if (lock.rows[0]?.ok !== 1) {
          await client.query('ROLLBACK');
          return { created: 0, dropped: [], skipped: true };
        }
        const created = await ensurePartitionsAhead(client, now);
        const dropped = await dropPartitionsBefore(
          client,
          'metrics_raw',
          now - rawRetentionDays * 86_400_000,
        );
        await client.query('COMMIT');
        if (dropped.length > 0) guard.reset();
        return { created, dropped, skipped: false };
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
  };
}
