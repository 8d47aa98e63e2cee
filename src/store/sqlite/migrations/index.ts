import type BetterSqlite3 from 'better-sqlite3';
import * as m0001 from './0001_init.js';
import * as m0002 from './0002_metrics.js';
import * as m0004 from './0004_uptime.js';
import * as m0005 from './0005_traffic.js';
import * as m0006 from './0006_alerts.js';
import * as m0009 from './0009_channels.js';
import * as m0010 from './0010_traffic_adjustments.js';
import * as m0011 from './0011_alerts_plus.js';
import * as m0012 from './0012_cpu_time_history.js';
import * as m0013 from './0013_history_blocks.js';
import * as m0014 from './0014_rate_limits.js';
import * as m0015 from './0015_traffic_counter_no_time_index.js';
import * as m0016 from './0016_traffic_counter_by_minute.js';
import * as m0017 from './0017_node_live.js';
import * as m0018 from './0018_traffic_open_bucket.js';
import * as m0019 from './0019_projection_lz4.js';

/**
 * Ordered SQLite migrations. Each id is applied once, in one transaction, and recorded in
 * `schema_migrations`; PostgreSQL keeps the same ids in its own folder.
 *
 * Ids are reserved per feature before its work starts, so branches built in parallel never take
 * the same one; a reserved id whose feature needs no table stays unused. No merged feature used
 * 0003, hence the gap. Gaps are harmless (the runner applies every listed id it has not recorded,
 * in list order), but do not fill one later: a database that already has 0004 would apply the new
 * 0003 after it and a fresh one before it. A new migration takes the next free id.
 */
export interface SqliteMigration {
  id: string;
  up: readonly string[];
  /** Data conversion run after `up`, in the same transaction (clock time passed in). */
  run?: (db: BetterSqlite3.Database, now: number) => void;
}

export const SQLITE_MIGRATIONS: readonly SqliteMigration[] = [
  { id: '0001_init', up: m0001.up },
  { id: '0002_metrics', up: m0002.up },
  { id: '0004_uptime', up: m0004.up },
  { id: '0005_traffic', up: m0005.up },
  { id: '0006_alerts', up: m0006.up },
  { id: '0009_channels', up: m0009.up },
  { id: '0010_traffic_adjustments', up: m0010.up },
  { id: '0011_alerts_plus', up: m0011.up },
  { id: '0012_cpu_time_history', up: m0012.up },
  { id: '0013_history_blocks', up: m0013.up, run: m0013.run },
  { id: '0014_rate_limits', up: m0014.up },
  { id: '0015_traffic_counter_no_time_index', up: m0015.up },
  { id: '0016_traffic_counter_by_minute', up: m0016.up, run: m0016.run },
  { id: '0017_node_live', up: m0017.up },
  { id: '0018_traffic_open_bucket', up: m0018.up },
  { id: '0019_projection_lz4', up: m0019.up },
];
