import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config/load.js';
import type { DashConfig } from '../../src/config/schema.js';
import { createDeps, type AppDeps, type DepsOverrides } from '../../src/deps.js';
import { buildApp } from '../../src/app.js';
import { silentLogger } from '../../src/platform/logger.js';
import { FakeClock } from './fake-clock.js';
import { TEST_ADMIN_PASSWORD } from './credentials.js';

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  clock: FakeClock;
  config: DashConfig;
  close(): Promise<void>;
}

export function tempHome(): string {
  return mkdtempSync(join(tmpdir(), 'dash-test-'));
}

/** A full Dash on an in-memory SQLite database with a fake clock, driven by inject(). */
export async function buildTestApp(
  env: Record<string, string> = {},
  overrides: Pick<DepsOverrides, 'nodeVersion' | 'updater' | 'log'> = {},
): Promise<TestApp> {
  const home = tempHome();
  const config = loadConfig({
    DASH_HOME: home,
    DASH_DATABASE_URL: 'sqlite::memory:',
    DASH_TIMEZONE: 'UTC',
    DASH_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    ...env,
  });
  const clock = new FakeClock();
  const deps = await createDeps(config, { clock, log: silentLogger, ...overrides });
  await deps.adminPassword.ensure(config.adminPassword);
  const app = buildApp(deps);
  await app.ready();
  return {
    app,
    deps,
    clock,
    config,
    async close() {
      await app.close();
      await deps.shutdown();
    },
  };
}

/** Starts the app on a free loopback port, for tests that need a real socket; returns the port. */
export async function listenOnLoopback(app: FastifyInstance): Promise<number> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as AddressInfo).port;
}
