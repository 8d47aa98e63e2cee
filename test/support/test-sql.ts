import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';

/**
 * Direct SQL on a test app's database, the same calls on both engines: `?` placeholders (turned
 * into `$1…` for PostgreSQL), rows as plain objects with numbers for integers. For seeding what
 * no endpoint writes and for checking what was stored; everything else goes through the API.
 */
export interface TestSql {
  readonly engine: 'sqlite' | 'postgres';
  all<T = Record<string, unknown>>(text: string, ...params: unknown[]): Promise<T[]>;
  get<T = Record<string, unknown>>(text: string, ...params: unknown[]): Promise<T | undefined>;
  /** One statement; the number of rows it changed. */
  run(text: string, ...params: unknown[]): Promise<number>;
  /** Several statements separated by `;`, no parameters. */
  exec(text: string): Promise<void>;
}

export function sqliteTestSql(db: BetterSqlite3.Database): TestSql {
  return {
    engine: 'sqlite',
    all: async <T>(text: string, ...params: unknown[]) => db.prepare(text).all(...params) as T[],
    get: async <T>(text: string, ...params: unknown[]) =>
      db.prepare(text).get(...params) as T | undefined,
    run: async (text, ...params) => db.prepare(text).run(...params).changes,
    exec: async (text) => void db.exec(text),
  };
}

/** `?` → `$n`, outside single-quoted literals. */
export function numberedPlaceholders(text: string): string {
  let n = 0;
  let quoted = false;
  let out = '';
  for (const ch of text) {
    if (ch === "'") quoted = !quoted;
    out += ch === '?' && !quoted ? `$${++n}` : ch;
  }
  return out;
}

export function postgresTestSql(pool: pg.Pool): TestSql {
  const query = (text: string, params: unknown[]) => pool.query(numberedPlaceholders(text), params);
  return {
    engine: 'postgres',
    all: async <T>(text: string, ...params: unknown[]) => (await query(text, params)).rows as T[],
    get: async <T>(text: string, ...params: unknown[]) =>
      (await query(text, params)).rows[0] as T | undefined,
    run: async (text, ...params) => (await query(text, params)).rowCount ?? 0,
    exec: async (text) => void (await pool.query(text)),
  };
}
