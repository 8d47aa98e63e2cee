import type BetterSqlite3 from 'better-sqlite3';
import type { DashConfig } from '../src/config/schema.js';
import { createDeps, type AppDeps, type DepsOverrides } from '../src/deps.js';
import { sqliteKit } from '../src/kits/sqlite.js';
import { openSqliteStore } from '../src/store/sqlite/open.js';
import { systemClock } from '../src/platform/clock.js';

export type BenchDeps = AppDeps & { raw: BetterSqlite3.Database };

/** Dash on the configured SQLite database, with its connection at hand for seeding. */
export async function createSqliteBenchDeps(
  config: DashConfig,
  overrides: Omit<DepsOverrides, 'kit'> = {},
): Promise<BenchDeps> {
  if (config.database.kind !== 'sqlite') throw new Error('the benchmarks run on SQLite');
  const store = openSqliteStore(config.database.path, (overrides.clock ?? systemClock).now());
  const deps = await createDeps(config, {
    ...overrides,
    kit: sqliteKit(store, config.database.path),
  });
  return Object.assign(deps, { raw: store.raw });
}
