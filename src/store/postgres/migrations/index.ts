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
 * Ordered PostgreSQL migrations, with the same ids as SQLITE_MIGRATIONS (a test keeps the two
 * lists in step): each feature's schema has one id on both engines, so `schema_migrations`
 * names the same state wherever it is read. Column types: bigint for integers and epoch-ms
 * times, double precision for reals, bytea for blobs, boolean for flags.
 */
export const POSTGRES_MIGRATIONS: ReadonlyArray<{ id: string; up: readonly string[] }> = [
  { id: '0001_init', up: m0001.up },
  { id: '0002_metrics', up: m0002.up },
  { id: '0004_uptime', up: m0004.up },
  { id: '0005_traffic', up: m0005.up },
  { id: '0006_alerts', up: m0006.up },
  { id: '0009_channels', up: m0009.up },
  { id: '0010_traffic_adjustments', up: m0010.up },
  { id: '0011_alerts_plus', up: m0011.up },
  { id: '0012_cpu_time_history', up: m0012.up },
  { id: '0013_history_blocks', up: m0013.up },
  { id: '0014_rate_limits', up: m0014.up },
  { id: '0015_traffic_counter_no_time_index', up: m0015.up },
  { id: '0016_traffic_counter_by_minute', up: m0016.up },
  { id: '0017_node_live', up: m0017.up },
  { id: '0018_traffic_open_bucket', up: m0018.up },
  { id: '0019_projection_lz4', up: m0019.up },
];
