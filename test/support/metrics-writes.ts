import { historySample } from '../../src/domain/ingest/history-sample.js';
import { validateMetricsReport } from '../../src/domain/ingest/validate-metrics.js';
import type { HistoryRepo, MetricsWrite } from '../../src/store/ports.js';
import { historyReader } from '../../src/store/sqlite/history-reader.js';
import { MetricsEngine } from '../../src/store/sqlite/metrics-engine.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/open.js';
import { agentReport, type ReportOptions } from './agent-payloads.js';

/** A MetricsWrite for a realistic report, as the ingest pipeline builds it. */
export function metricsWrite(
  nodeId: number,
  receivedAt: number,
  opts: ReportOptions & { deadline?: number; ip?: string | null } = {},
): MetricsWrite {
  const v = validateMetricsReport(agentReport(opts));
  const sample = historySample(v.metrics);
  return {
    nodeId,
    receivedAt,
    deadline: opts.deadline ?? receivedAt + 5000,
    host: sample.host,
    devices: sample.devices,
    current: {
      reportedAt: v.reportedAt,
      runtime: { receivedAt, seq: opts.seq ?? 0 },
      smartJson: null,
      thermalJson: null,
      pressureJson: null,
    },
    ip: opts.ip === undefined ? '10.0.0.1' : opts.ip,
  };
}

/** An in-memory store with the metrics writer and the history reader over one connection. */
export function openHistoryStore(): {
  store: SqliteStore;
  engine: MetricsEngine;
  history: HistoryRepo;
} {
  const store = openSqliteStore(':memory:', 0);
  return {
    store,
    engine: new MetricsEngine(store.raw, () => 0),
    history: historyReader(store.raw),
  };
}
