import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { openEngineKit } from '../../src/kits/open.js';
import type { EngineKit } from '../../src/kits/engine-kit.js';
import { createPool } from '../../src/store/postgres/pool.js';
import { emptySchema, freshSchema, namedSchema, runSchemaPrefix } from './postgres.js';
import { postgresTestSql, type TestSql } from './test-sql.js';

/** The engine test apps run on: `DASH_TEST_ENGINE=postgres` (make test-postgres) or SQLite. */
export const TEST_ENGINE: 'sqlite' | 'postgres' =
  process.env.DASH_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

interface AppSchema {
  url: string;
  /** Its place among the schemas this worker keeps for the run (see `acquire`). */
  slot: number;
  drop: () => Promise<void>;
  /** Rows left by the app that used it last; emptied before the next one starts. */
  used: boolean;
  /** A test changed its tables (fault tests): dropped, never handed out again. */
  damaged: boolean;
}

/**
 * Set for the whole `make test-postgres` run by vitest.postgres.config.ts, which drops the run's
 * schemas when it ends (test/support/postgres-global-setup.ts).
 */
const RUN = process.env.DASH_TEST_PG_RUN;

/**
 * Schemas of this test file's apps. Migrating a schema takes most of a second and emptying one
 * a few milliseconds, so a closed app's schema is emptied and handed to the next app instead of
 * dropped; two apps open at once still get two schemas.
 *
 * In a run of vitest.postgres.config.ts the schemas also outlive the test file: they are named
 * by run, worker (VITEST_POOL_ID; a worker runs one file at a time) and slot, so the worker's
 * next file finds them migrated and only empties them. Outside such a run each file's schemas
 * are dropped after it (test/support/postgres-app-setup.ts).
 */
const free: AppSchema[] = [];
const all: AppSchema[] = [];

async function acquire(): Promise<AppSchema> {
  const reused = free.pop();
  if (reused) return reused;
  let slot = 0;
  while (all.some((s) => s.slot === slot)) slot++;
  let schema: AppSchema;
  if (RUN === undefined) {
    const fresh = await freshSchema();
    schema = { url: fresh.url, slot, drop: fresh.drop, used: false, damaged: false };
  } else {
    const worker = process.env.VITEST_POOL_ID ?? '0';
    const kept = await namedSchema(`${runSchemaPrefix(RUN)}w${worker}_${slot}`);
    schema = { url: kept.url, slot, drop: kept.drop, used: kept.existed, damaged: false };
  }
  all.push(schema);
  return schema;
}

/**
 * Drops every schema this file's apps used, unless the run keeps them for the next file; a
 * damaged one goes in any case (its app may never have been released: `app.close()` alone).
 */
export async function dropTestSchemas(): Promise<void> {
  free.length = 0;
  for (const s of all.splice(0)) if (RUN === undefined || s.damaged) await s.drop();
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
