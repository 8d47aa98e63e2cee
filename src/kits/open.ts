import type { DatabaseConfig } from '../config/schema.js';
import { postgresServeRefusal } from '../store/open.js';
import { openSqliteStore } from '../store/sqlite/open.js';
import type { EngineKit } from './engine-kit.js';
import { sqliteKit } from './sqlite.js';

/** Opens the configured engine for `dash serve`, schema brought up to date, as an engine kit. */
export async function openEngineKit(config: DatabaseConfig, now: number): Promise<EngineKit> {
  if (config.kind === 'postgres') throw postgresServeRefusal();
  return sqliteKit(openSqliteStore(config.path, now), config.path);
}
