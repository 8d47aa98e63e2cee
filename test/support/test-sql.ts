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
  /** Restarts the id counters of these (emptied) tables, so the next row gets id 1 again. */
  resetIds(tables: readonly string[]): Promise<void>;
}

export function sqliteTestSql(db: BetterSqlite3.Database): TestSql {
  return {
    engine: 'sqlite',
    all: async <T>(text: string, ...params: unknown[]) => db.prepare(text).all(...params) as T[],
    get: async <T>(text: string, ...params: unknown[]) =>
      db.prepare(text).get(...params) as T | undefined,
    run: async (text, ...params) => db.prepare(text).run(...params).changes,
    exec: async (text) => void db.exec(text),
    resetIds: async (tables) => {
      const reset = db.prepare('DELETE FROM sqlite_sequence WHERE name = ?');
      for (const table of tables) reset.run(table);
    },
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

/** Statements that change the schema itself (fault tests drop or rename tables). */
const SCHEMA_CHANGE = /\b(DROP|ALTER|CREATE)\s+(TABLE|INDEX|TRIGGER|VIEW)\b/i;

/** `onSchemaChange`: told before a statement changes the schema, so it is not reused after. */
export function postgresTestSql(pool: pg.Pool, onSchemaChange: () => void): TestSql {
  const query = (text: string, params: unknown[]) => {
    if (SCHEMA_CHANGE.test(text)) onSchemaChange();
    return pool.query(numberedPlaceholders(text), params);
  };
  return {
    engine: 'postgres',
    all: async <T>(text: string, ...params: unknown[]) => (await query(text, params)).rows as T[],
    get: async <T>(text: string, ...params: unknown[]) =>
      (await query(text, params)).rows[0] as T | undefined,
    run: async (text, ...params) => (await query(text, params)).rowCount ?? 0,
    exec: async (text) => void (await query(text, [])),
    resetIds: async (tables) => {
      for (const table of tables)
        await pool.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), 1, false)`, [table]);
    },
  };
}
