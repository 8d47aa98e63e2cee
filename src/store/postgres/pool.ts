import pg from 'pg';

/** PostgreSQL type ids whose text form Dash reads as something other than pg's default. */
const INT8 = 20;
const NUMERIC = 1700;
const BOOL = 16;

/**
 * Values come back in the shapes the shared store schema (store/schema.ts) declares, the same
 * as SQLite's: 64-bit integers (times in epoch ms, ids, counters; all below 2^53) and numeric
 * sums as numbers rather than strings, and booleans as 1/0, so the Kysely queries in
 * store/queries/ read both engines alike. Written parameters need nothing: PostgreSQL reads the
 * text '1'/'0' of a number as a boolean where the column is one.
 */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) => {
    if (format !== 'binary') {
      if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
      if (oid === BOOL) return (v: string) => (v === 't' ? 1 : 0);
    }
    return pg.types.getTypeParser(oid, format as 'text') as (v: string) => unknown;
  }) as pg.CustomTypesConfig['getTypeParser'],
};

export interface PoolOptions {
  /** Connections in the pool (default 10). */
  max?: number;
}

/** A connection pool for a `postgres://` URL, with Dash's type parsing. */
export function createPool(url: string, opts: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    types,
    max: opts.max ?? 10,
    connectionTimeoutMillis: 10_000,
    application_name: 'dash',
  });
  // An idle connection the server dropped is replaced on next use; do not crash the process.
  pool.on('error', () => {});
  return pool;
}

/**
 * Runs fn in one transaction on one pooled connection; rolls back when it throws. `begin` may
 * ask for another isolation level (history reads take a REPEATABLE READ snapshot).
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient) => Promise<T>,
  begin = 'BEGIN',
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
    try {
      const out = await fn(client);
      await client.query('COMMIT');
      return out;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    }
  } finally {
    client.release();
  }
}

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}
