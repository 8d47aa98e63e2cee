import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/open.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/open.js';
import type {
  FrontRepo,
  NodeStaticRepo,
  Store,
  TrafficAdjustmentsRepo,
  TrafficRepo,
} from '../../src/store/ports.js';
import {
  emptySchema,
  freshSchema,
  postgresUnavailable,
  warnPostgresSkipped,
} from '../support/postgres.js';

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

const sqlite: Engine = {
  name: 'sqlite',
  open: async () => openSqliteStore(':memory:', 0),
  openShared: async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'dash-engine-')), 'dash.db');
    const another = async () => openSqliteStore(path, 0);
    return { store: await another(), another };
  },
};

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
  if (!first) await emptySchema(store.pool);
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
