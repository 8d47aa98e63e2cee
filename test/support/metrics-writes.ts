import { historySample } from '../../src/domain/ingest/history-sample.js';
import { validateMetricsReport } from '../../src/domain/ingest/validate-metrics.js';
import type { MetricsWrite } from '../../src/store/ports.js';
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
