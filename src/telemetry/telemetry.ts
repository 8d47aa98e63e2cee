import type { MetricsConfig } from '../config/schema.js';
import type { FrontState } from '../domain/front/front-state.js';
import { ingestStats } from '../workers/ingest-stats.js';
import { openLogIoTotals } from '../workers/open-log-io.js';
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
  /** Bytes the database occupies, WAL included (the engine knows how to measure it). */
  databaseBytes: () => Promise<number>;
  front: FrontState;
  memberships: () => Promise<Array<{ name: string; nodes: Array<{ id: number }> }>>;
  offlineAfterMs: number;
}

export function createTelemetry(d: TelemetryDeps): Telemetry {
  return {
    config: d.config,
    self: new SelfMetrics({
      ingestQueued: () => ingestStats.queued,
      ingestBatches: () => ({ batches: ingestStats.batches, reports: ingestStats.batchedReports }),
      databaseBytes: d.databaseBytes,
      openLogIo: openLogIoTotals,
    }),
    nodes: new NodeExposition({
      front: d.front,
      groups: () => groupLabelsFrom(d.memberships),
      offlineAfterMs: d.offlineAfterMs,
      refreshIntervalMs: d.config.refreshIntervalMs,
    }),
  };
}
