import type pg from 'pg';
import { POSTGRES_MIGRATIONS } from './migrations/index.js';
import { ensurePartitionsAhead } from './partitions.js';

export interface MigrationResult {
  applied: string[];
  current: string | undefined;
}

/** Advisory lock key taken while migrating, so instances starting together migrate once. */
const MIGRATE_LOCK = 0x64617368_01; // 'dash' + 1

/**
 * Applies pending migrations, each in its own transaction, under a session advisory lock (a
 * second instance starting at the same time waits, then finds nothing left to do); then makes
 * sure today's and the next days' history partitions exist. Safe to run on every start.
 */
export async function migratePostgres(pool: pg.Pool, now: number): Promise<MigrationResult> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATE_LOCK]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        id text PRIMARY KEY,
        applied_at bigint NOT NULL
      )`);
      const done = new Set(
        (await client.query<{ id: string }>('SELECT id FROM schema_migrations')).rows.map(
          (r) => r.id,
        ),
      );
      const known = new Set(POSTGRES_MIGRATIONS.map((m) => m.id));
      const unknown = [...done].filter((id) => !known.has(id));
      if (unknown.length > 0) {
        throw new Error(
          `database was migrated by a newer Dash (unknown migrations: ${unknown.join(', ')}); upgrade Dash`,
        );
      }
      const applied: string[] = [];
      for (const m of POSTGRES_MIGRATIONS) {
        if (done.has(m.id)) continue;
        await client.query('BEGIN');
        try {
          for (const stmt of m.up) await client.query(stmt);
          await client.query('INSERT INTO schema_migrations (id, applied_at) VALUES ($1, $2)', [
            m.id,
            now,
          ]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK').catch(() => {});
          throw new Error(`migration ${m.id} failed: ${(err as Error).message}`, { cause: err });
        }
        applied.push(m.id);
      }
      await ensurePartitionsAhead(client, now);
      return { applied, current: POSTGRES_MIGRATIONS.at(-1)?.id };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATE_LOCK]);
    }
  } finally {
    client.release();
  }
}
