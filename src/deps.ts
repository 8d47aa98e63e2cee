import type { DashConfig } from './config/schema.js';
import { systemClock, type Clock } from './platform/clock.js';
import { createLogger, type Logger } from './platform/logger.js';
import { openStore } from './store/open.js';
import type { SqliteStore } from './store/sqlite/open.js';
import { AdminPassword } from './domain/auth/admin-password.js';
import { DASH_VERSION } from './version.js';

/** Everything the HTTP layer and jobs need, built once at start (composition root). */
export interface AppDeps {
  config: DashConfig;
  clock: Clock;
  log: Logger;
  store: SqliteStore;
  versions: { dash: string; node: string };
  adminPassword: AdminPassword;
  /** Stops background work and closes the store; idempotent. */
  shutdown(): Promise<void>;
}

export interface DepsOverrides {
  clock?: Clock;
  log?: Logger;
}

export function createDeps(config: DashConfig, overrides: DepsOverrides = {}): AppDeps {
  const clock = overrides.clock ?? systemClock;
  const log = overrides.log ?? createLogger(config.logLevel);
  const store = openStore(config.database, clock.now());
  let closed = false;
  return {
    config,
    clock,
    log,
    store,
    versions: { dash: DASH_VERSION, node: 'unknown' },
    adminPassword: new AdminPassword(store.settings, clock),
    async shutdown() {
      if (closed) return;
      closed = true;
      await store.close();
    },
  };
}
