import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type pg from 'pg';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/open.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/open.js';
import type {
  FrontRepo,
  NodeStaticRepo,
  Store,
  TrafficAdjustmentsRepo,
  TrafficRepo,
} from '../../src/store/ports.js';
import { frontRepo } from '../../src/store/queries/node-front.js';
import { nodeStaticRepo } from '../../src/store/queries/node-static.js';
import { freshSchema, postgresUnavailable, warnPostgresSkipped } from '../support/postgres.js';

/** The ports both engines implement so far. */
export type EngineStore = Pick<
  Store,
  | 'engine'
  | 'settings'
  | 'nodes'
  | 'groups'
  | 'sessions'
  | 'uptime'
  | 'alerts'
  | 'channels'
  | 'close'
> & {
  front: FrontRepo;
  nodeStatic: NodeStaticRepo;
  trafficAdjustments: TrafficAdjustmentsRepo;
  traffic: TrafficRepo;
};

/**
 * Rows of a parameterless SQL read on either engine, for what no port shows (the outbox tables).
 * Flags read as 1/0 and integers as numbers on both (store/postgres/pool.ts).
 */
export async function readRows<T>(store: EngineStore, sql: string): Promise<T[]> {
  if (store.engine === 'postgres')
    return (await (store as PostgresStore).pool.query(sql)).rows as T[];
  return (store as unknown as SqliteStore).raw.prepare(sql).all() as T[];
}

export interface Engine {
  name: 'sqlite' | 'postgres';
  open: () => Promise<EngineStore>;
  /**
   * A store plus a way to open more on the same data: a second Dash instance, or the same one
   * after a restart (SQLite: a file; PostgreSQL: the shared schema, not emptied again).
   */
  openShared: () => Promise<{ store: EngineStore; another: () => Promise<EngineStore> }>;
}

const withQueries = (store: SqliteStore) =>
  Object.assign(store, { front: frontRepo(store.db), nodeStatic: nodeStaticRepo(store.db) });

const sqlite: Engine = {
  name: 'sqlite',
  open: async () => withQueries(openSqliteStore(':memory:', 0)),
  openShared: async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'dash-engine-')), 'dash.db');
    const another = async () => withQueries(openSqliteStore(path, 0));
    return { store: await another(), another };
  },
};

/** Deletes every row of the current schema and restarts its id sequences. */
async function emptyAll(pool: pg.Pool): Promise<void> {
  const tables = await pool.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
       AND c.relname <> 'schema_migrations'`,
  );
  // Tables others reference go last (DELETE, not TRUNCATE: much faster on near-empty tables).
  const last = new Set(['nodes', 'groups', 'alert_events']);
  const names = tables.rows.map((t) => t.name);
  const ordered = [...names.filter((n) => !last.has(n)), ...names.filter((n) => last.has(n))];
  await pool.query(
    ordered.map((n) => `DELETE FROM ${n};`).join('\n') +
      `SELECT setval(s.oid, 1, false) FROM pg_class s JOIN pg_namespace n ON n.oid = s.relnamespace
       WHERE s.relkind = 'S' AND n.nspname = current_schema();`,
  );
}

/**
 * One migrated schema per test file (this module is loaded once per file), emptied before each
 * store is handed out: migrating a schema takes about a second, emptying it a few milliseconds.
 */
let shared: Promise<{ url: string; drop: () => Promise<void> }> | undefined;

export async function openSharedPostgres(now = 0): Promise<PostgresStore> {
  let first = false;
  shared ??= (async () => {
    first = true;
    const fresh = await freshSchema();
    afterAll(() => fresh.drop());
    return fresh;
  })();
  const { url } = await shared;
  const store = await openPostgresStore(url, now, { max: 2 });
  if (!first) await emptyAll(store.pool);
  return store;
}

const postgres: Engine = {
  name: 'postgres',
  open: () => openSharedPostgres(),
  openShared: async () => {
    const store = await openSharedPostgres();
    const { url } = await shared!;
    return { store, another: () => openPostgresStore(url, 0, { max: 2 }) };
  },
};

const unavailable = await postgresUnavailable();
if (unavailable !== undefined) warnPostgresSkipped(unavailable);

/**
 * The engines the store contract suites run against: SQLite always, PostgreSQL when one can be
 * reached (else a loud message and only its half is left out).
 */
export const POSTGRES_AVAILABLE = unavailable === undefined;

export const ENGINES: readonly Engine[] = unavailable === undefined ? [sqlite, postgres] : [sqlite];
