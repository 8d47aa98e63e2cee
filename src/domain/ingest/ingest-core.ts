import { AppError } from '../../errors/app-error.js';
import type { NodeReport } from '../../protocol/node-report.js';
import type { MetricsWriter, MetricsWriteOutcome } from '../../store/ports.js';
import type { SidePayloads } from '../front/front-state.js';
import { runtimeView, type RuntimeView } from '../front/runtime-view.js';
import { pressureView, smartView, thermalView } from '../front/side-views.js';
import { historySample } from './history-sample.js';
import { validateMetricsReport } from './validate-metrics.js';

/** One metrics request as it arrived: the body is still raw bytes. */
export interface RawReport {
  nodeId: number;
  receivedAt: number;
  /** Receipt + 5 s. */
  deadline: number;
  body: Uint8Array | undefined;
  ip: string | null;
}

export type CoreResult =
  | {
      ok: false;
      code: 'invalid_request' | 'invalid_metrics' | 'service_unavailable';
      message: string;
      /** Internal cause, for the log only. */
      detail?: string;
    }
  | {
      ok: true;
      outcome: MetricsWriteOutcome;
      version: string;
      runtime: RuntimeView;
      side: SidePayloads;
    };

/** Where reports are decoded, validated and stored (a worker thread, or inline). */
export interface ReportProcessor {
  process(report: RawReport): Promise<CoreResult>;
}

const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));

/**
 * The CPU-heavy part of POST /api/node/metrics, kept free of HTTP so it can run next to the
 * writer on its own thread: decode the body, apply the value rules, derive the front runtime
 * view, the SMART/thermal/pressure payloads and the history sample, then store durably.
 * Failures come back as data (code + message), never as thrown errors, so they cross threads.
 */
export class IngestCore implements ReportProcessor {
  constructor(
    private readonly decode: (body: Uint8Array | undefined) => NodeReport,
    private readonly writer: MetricsWriter,
    private readonly now: () => number,
  ) {}

  async process(r: RawReport): Promise<CoreResult> {
    let write: Parameters<MetricsWriter['write']>[0];
    let version: string;
    let runtime: RuntimeView;
    let side: SidePayloads;
    try {
      if (this.now() > r.deadline) return expired();
      const body = this.decode(r.body);
      const report = validateMetricsReport(body);
      const m = report.metrics;
      version = report.version;
      runtime = runtimeView(m, r.receivedAt, report.reportedAt, body.timestamp ?? '');
      side = {
        smartJson: json(smartView(m.disk?.smart)),
        thermalJson: json(thermalView(m.thermal)),
        pressureJson: json(pressureView(m.pressure)),
      };
      const sample = historySample(m);
      write = {
        nodeId: r.nodeId,
        receivedAt: r.receivedAt,
        deadline: r.deadline,
        host: sample.host,
        devices: sample.devices,
        current: { reportedAt: report.reportedAt, runtimeJson: JSON.stringify(runtime), ...side },
        ip: r.ip,
      };
    } catch (err) {
      if (
        err instanceof AppError &&
        (err.code === 'invalid_request' || err.code === 'invalid_metrics')
      ) {
        return { ok: false, code: err.code, message: err.message };
      }
      throw err;
    }
    let outcome: MetricsWriteOutcome;
    try {
      outcome = await this.writer.write(write);
    } catch (err) {
      return {
        ok: false,
        code: 'service_unavailable',
        message: 'the report could not be stored',
        detail: err instanceof Error ? err.message : String(err),
      };
    }
    if (outcome === 'expired') return expired();
    return { ok: true, outcome, version, runtime, side };
  }
}

function expired(): CoreResult {
  return {
    ok: false,
    code: 'service_unavailable',
    message: 'the report could not be stored within 5 seconds of receipt',
  };
}
