import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config/load.js';
import type { DashConfig } from '../../src/config/schema.js';
import { createDeps, type AppDeps, type DepsOverrides } from '../../src/deps.js';
import { buildApp } from '../../src/app.js';
import { silentLogger } from '../../src/platform/logger.js';
import type { EngineKit } from '../../src/kits/engine-kit.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { sqliteKit } from '../../src/kits/sqlite.js';
import { FakeClock } from './fake-clock.js';
import { TEST_ADMIN_PASSWORD, TEST_PASSWORD_COST } from './credentials.js';
import { sqliteTestSql, type TestSql } from './test-sql.js';
import { TEST_ENGINE, openPostgresTestEngine } from './test-engine.js';

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  clock: FakeClock;
  config: DashConfig;
  /** The engine this app runs on: SQLite, or PostgreSQL under DASH_TEST_ENGINE=postgres. */
  engine: 'sqlite' | 'postgres';
  /** Direct SQL on the app's database, the same calls on both engines. */
  sql: TestSql;
  /** The SQLite connection, for tests of SQLite itself; throws on PostgreSQL. */
  readonly raw: BetterSqlite3.Database;
  close(): Promise<void>;
}

export function tempHome(): string {
  return mkdtempSync(join(tmpdir(), 'dash-test-'));
}

interface OpenedEngine {
  kit: EngineKit;
  sql: TestSql;
  raw: BetterSqlite3.Database | undefined;
  /** After the app closed (and with it the store): gives the database back. */
  release(): Promise<void>;
}

function openSqlite(config: DashConfig, now: number): OpenedEngine {
  if (config.database.kind !== 'sqlite') throw new Error('not a SQLite configuration');
  const store = openSqliteStore(config.database.path, now);
  return {
    kit: sqliteKit(store, config.database.path),
    sql: sqliteTestSql(store.raw),
    raw: store.raw,
    release: async () => {},
  };
}

export type TestAppOverrides = Pick<
  DepsOverrides,
  'nodeVersion' | 'updater' | 'log' | 'mtproto' | 'passwordCost'
>;

/**
 * A full Dash with a fake clock, driven by inject(): on an in-memory SQLite database, or with
 * DASH_TEST_ENGINE=postgres on an empty schema of the test PostgreSQL of its own. A database
 * URL in `env` wins over both (tests of a SQLite file). Its admin password is hashed at
 * TEST_PASSWORD_COST (the production cost has tests of its own: test/platform/crypto.test.ts).
 */
export async function buildTestApp(
  env: Record<string, string> = {},
  overrides: TestAppOverrides = {},
): Promise<TestApp> {
  const home = tempHome();
  const clock = new FakeClock();
  const onPostgres = TEST_ENGINE === 'postgres' && env.DASH_DATABASE_URL === undefined;
  const pg = onPostgres ? await openPostgresTestEngine(clock.now()) : undefined;
  const config = loadConfig({
    DASH_HOME: home,
    DASH_DATABASE_URL: pg?.url ?? 'sqlite::memory:',
    DASH_TIMEZONE: 'UTC',
    DASH_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    ...env,
  });
  const engine: OpenedEngine = pg ?? openSqlite(config, clock.now());
  let deps: AppDeps;
  try {
    deps = await createDeps(config, {
      clock,
      log: silentLogger,
      passwordCost: TEST_PASSWORD_COST,
      // Reports are prepared on the calling thread, as on the in-memory SQLite database: a
      // thread per app would cost each test seconds. The threads have their own tests
      // (test/workers/pg-ingest-backend.test.ts) and run in the process tests (serve-two-instances).
      ...(onPostgres ? { ingestMode: 'inline' as const } : {}),
      ...overrides,
      kit: engine.kit,
    });
  } catch (err) {
    await engine.kit.store.close();
    await engine.release();
    throw err;
  }
  await deps.adminPassword.ensure(config.adminPassword);
  const app = buildApp(deps);
  await app.ready();
  // Worker threads load in parallel with the rest of the start; a report's 5 s budget should
  // not include a loaded machine's time to start them (from TypeScript sources, in tests).
  await deps.ingestBackend.ready?.();
  return {
    app,
    deps,
    clock,
    config,
    engine: deps.store.engine,
    sql: engine.sql,
    get raw(): BetterSqlite3.Database {
      if (!engine.raw)
        throw new Error('this test reads SQLite directly; it cannot run on PostgreSQL');
      return engine.raw;
    },
    async close() {
      await app.close();
      await deps.shutdown();
      await engine.release();
    },
  };
}

/** Starts the app on a free loopback port, for tests that need a real socket; returns the port. */
export async function listenOnLoopback(app: FastifyInstance): Promise<number> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as AddressInfo).port;
}
