import { statSync } from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';
import type { DatabaseConfig, MetricsConfig } from '../config/schema.js';
import type { FrontState } from '../domain/front/front-state.js';
import { ingestStats } from '../workers/ingest-stats.js';
import { NodeExposition, groupLabelsFrom } from './node-exposition.js';
import { SelfMetrics } from './self-metrics.js';

/** Everything GET /metrics serves; exists only when /metrics is enabled. */
export interface Telemetry {
  config: MetricsConfig;
  self: SelfMetrics;
  nodes: NodeExposition;
}

export interface TelemetryDeps {
  config: MetricsConfig;
  database: DatabaseConfig;
  db: BetterSqlite3.Database;
  front: FrontState;
  memberships: () => Promise<Array<{ name: string; nodes: Array<{ id: number }> }>>;
  offlineAfterMs: number;
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Pages in use by the engine; for a file, plus its write-ahead log. */
function databaseBytes(database: DatabaseConfig, db: BetterSqlite3.Database): number {
  const pages = db.pragma('page_count', { simple: true }) as number;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const wal =
    database.kind === 'sqlite' && database.path !== ':memory:'
      ? fileSize(`${database.path}-wal`)
      : 0;
  return pages * pageSize + wal;
}

export function createTelemetry(d: TelemetryDeps): Telemetry {
  return {
    config: d.config,
    self: new SelfMetrics({
      ingestQueued: () => ingestStats.queued,
      ingestBatches: () => ({ batches: ingestStats.batches, reports: ingestStats.batchedReports }),
      databaseBytes: () => databaseBytes(d.database, d.db),
    }),
    nodes: new NodeExposition({
      front: d.front,
      groups: () => groupLabelsFrom(d.memberships),
      offlineAfterMs: d.offlineAfterMs,
      refreshIntervalMs: d.config.refreshIntervalMs,
    }),
  };
}
