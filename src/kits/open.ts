import type { DatabaseConfig } from '../config/schema.js';
import { openSqliteStore } from '../store/sqlite/open.js';
import { openPostgresStore } from '../store/postgres/open.js';
import type { EngineKit } from './engine-kit.js';
import { sqliteKit } from './sqlite.js';
import { postgresKit } from './postgres.js';

/** Opens the configured engine for `dash serve`, schema brought up to date, as an engine kit. */
export async function openEngineKit(config: DatabaseConfig, now: number): Promise<EngineKit> {
  if (config.kind === 'postgres') {
    const store = await openPostgresStore(config.url, now);
    try {
      const r = await store.pool.query<{ schema: string }>('SELECT current_schema() AS schema');
      return postgresKit(store, config.url, r.rows[0]?.schema ?? 'public');
    } catch (err) {
      await store.close();
      throw err;
    }
  }
  return sqliteKit(openSqliteStore(config.path, now), config.path, config.commitDelayMs);
}
