import type pg from 'pg';
import type { JobLocks } from '../ports.js';

/**
 * Jobs that must run once across instances take a PostgreSQL session advisory lock named after
 * the job for the length of a run (`pg_try_advisory_lock(hashtext(…))` on a connection held for
 * the run). An instance finding it taken skips that run; if the holder dies, PostgreSQL ends
 * its session and the lock with it, so the next instance's turn runs. With a turn, the lock
 * holder also reads when the job last started anywhere (`job_runs`) and runs only when that run
 * is due again: a turn is run once, not once per instance whose timer fires after it.
 */
export function postgresJobLocks(pool: pg.Pool, scope = ''): JobLocks {
  // Advisory locks are database-wide: installs in other schemas of the database use a scope.
  const key = (name: string) => (scope ? `dash.job.${scope}.${name}` : `dash.job.${name}`);
  return {
    async runExclusive(name, fn, turn) {
      const client = await pool.connect();
      let locked = false;
      try {
        const res = await client.query<{ ok: number }>(
          // Booleans read as 1/0 (pool.ts).
          'SELECT pg_try_advisory_lock(hashtext($1)) AS ok',
          [key(name)],
        );
        locked = res.rows[0]?.ok === 1;
        if (!locked) return { ran: false };
        if (turn) {
          const last = await client.query<{ started_at: number }>(
            'SELECT started_at FROM job_runs WHERE name = $1',
            [name],
          );
          const at = last.rows[0]?.started_at;
          if (at !== undefined && turn.nextRunAt(at) > turn.now) return { ran: false };
          await client.query(
            `INSERT INTO job_runs (name, started_at) VALUES ($1, $2)
             ON CONFLICT (name) DO UPDATE SET started_at = excluded.started_at`,
            [name, turn.now],
          );
        }
        return { ran: true, value: await fn() };
      } finally {
        if (locked) {
          await client
            .query('SELECT pg_advisory_unlock(hashtext($1))', [key(name)])
            .catch(() => {});
        }
        client.release();
      }
    },
  };
}
