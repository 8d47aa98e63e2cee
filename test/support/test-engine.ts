import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { openEngineKit } from '../../src/kits/open.js';
import type { EngineKit } from '../../src/kits/engine-kit.js';
import { createPool } from '../../src/store/postgres/pool.js';
import { emptySchema, freshSchema } from './postgres.js';
import { postgresTestSql, type TestSql } from './test-sql.js';

/** The engine test apps run on: `DASH_TEST_ENGINE=postgres` (make test-postgres) or SQLite. */
export const TEST_ENGINE: 'sqlite' | 'postgres' =
  process.env.DASH_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

interface AppSchema {
  url: string;
  drop: () => Promise<void>;
  /** Rows left by the app that used it last; emptied before the next one starts. */
  used: boolean;
  /** A test changed its tables (fault tests): dropped, never handed out again. */
  damaged: boolean;
}

/**
 * Schemas of this test file's apps. Migrating a schema takes most of a second and emptying one
 * a few milliseconds, so a closed app's schema is emptied and handed to the next app instead of
 * dropped; two apps open at once still get two schemas. The file's schemas are dropped after it
 * (test/support/postgres-app-setup.ts).
 */
const free: AppSchema[] = [];
const all: AppSchema[] = [];

async function acquire(): Promise<AppSchema> {
  const reused = free.pop();
  if (reused) return reused;
  const fresh = await freshSchema();
  const schema = { url: fresh.url, drop: fresh.drop, used: false, damaged: false };
  all.push(schema);
  return schema;
}

/** Drops every schema this file's apps used. */
export async function dropTestSchemas(): Promise<void> {
  free.length = 0;
  for (const s of all.splice(0)) await s.drop();
}

export interface PostgresTestEngine {
  url: string;
  kit: EngineKit;
  sql: TestSql;
  raw: BetterSqlite3.Database | undefined;
  release(): Promise<void>;
}

/** A Dash engine kit on an empty, migrated schema of the test PostgreSQL. */
export async function openPostgresTestEngine(now: number): Promise<PostgresTestEngine> {
  const schema = await acquire();
  const pool: pg.Pool = createPool(schema.url, { max: 2 });
  try {
    if (schema.used) await emptySchema(pool);
    schema.used = true;
    const kit = await openEngineKit({ kind: 'postgres', url: schema.url }, now);
    return {
      url: schema.url,
      kit,
      sql: postgresTestSql(pool, () => {
        schema.damaged = true;
      }),
      raw: undefined,
      async release() {
        await pool.end();
        if (!schema.damaged) free.push(schema);
        else {
          all.splice(all.indexOf(schema), 1);
          await schema.drop();
        }
      },
    };
  } catch (err) {
    await pool.end();
    free.push(schema);
    throw err;
  }
}
