import * as m0001 from './0001_init.js';
import * as m0002 from './0002_metrics.js';
import * as m0004 from './0004_uptime.js';
import * as m0006 from './0006_alerts.js';
import * as m0009 from './0009_channels.js';

/**
 * Ordered SQLite migrations. Each id is applied once, in one transaction, and recorded in
 * `schema_migrations`; PostgreSQL keeps the same ids in its own folder.
 */
export const SQLITE_MIGRATIONS: ReadonlyArray<{ id: string; up: readonly string[] }> = [
  { id: '0001_init', up: m0001.up },
  { id: '0002_metrics', up: m0002.up },
  { id: '0004_uptime', up: m0004.up },
  { id: '0006_alerts', up: m0006.up },
  { id: '0009_channels', up: m0009.up },
];
