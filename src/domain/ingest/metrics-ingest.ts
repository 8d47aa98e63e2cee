import { AppError } from '../../errors/app-error.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import type { NodeReport } from '../../protocol/node-report.js';
import type { MetricsWriter, MetricsWriteOutcome } from '../../store/ports.js';
import type { FrontState } from '../front/front-state.js';
import { runtimeView } from '../front/runtime-view.js';
import { pressureView, smartView, thermalView } from '../front/side-views.js';
import type { UpdateManifest, UpdateOffers } from '../nodes/update-offers.js';
import { historySample } from './history-sample.js';
import type { ReportEvents } from './report-events.js';
import { validateMetricsReport } from './validate-metrics.js';

/** Spec §4.4 rule 2: a report must be persisted within 5 s of receipt, or not at all. */
export const METRICS_PERSIST_BUDGET_MS = 5000;

export interface MetricsIngestDeps {
  clock: Clock;
  log: Logger;
  writer: MetricsWriter;
  front: FrontState;
  events: ReportEvents;
  offers: UpdateOffers;
}

export interface IncomingReport {
  nodeId: number;
  /** When the request arrived; the persistence budget and the projection order start here. */
  receivedAt: number;
  body: NodeReport;
  ip: string | null;
}

const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));

/**
 * POST /api/node/metrics: validate, store history (and the current projection when this is the
 * node's newest report by receive order), refresh hot state, tell subscribers, and answer with
 * any pending update manifest.
 */
export class MetricsIngest {
  constructor(private readonly d: MetricsIngestDeps) {}

  async accept(r: IncomingReport): Promise<{ update: UpdateManifest | null }> {
    const deadline = r.receivedAt + METRICS_PERSIST_BUDGET_MS;
    if (this.d.clock.now() > deadline) throw expired();
    const report = validateMetricsReport(r.body);
    const meta = await this.unavailableOnFailure(() => this.d.front.ensureNode(r.nodeId), r.nodeId);
    if (!meta) throw new AppError('unauthorized', 'the node no longer exists');

    const m = report.metrics;
    const runtime = runtimeView(m, r.receivedAt, report.reportedAt, r.body.timestamp ?? '');
    const side = {
      smartJson: json(smartView(m.disk?.smart)),
      thermalJson: json(thermalView(m.thermal)),
      pressureJson: json(pressureView(m.pressure)),
    };
    const sample = historySample(m);
    const outcome: MetricsWriteOutcome = await this.unavailableOnFailure(
      () =>
        this.d.writer.write({
          nodeId: r.nodeId,
          receivedAt: r.receivedAt,
          deadline,
          host: sample.host,
          devices: sample.devices,
          current: { reportedAt: report.reportedAt, runtimeJson: JSON.stringify(runtime), ...side },
          ip: r.ip,
        }),
      r.nodeId,
    );
    if (outcome === 'expired') throw expired();
    if (outcome === 'current' && this.d.front.apply(r.nodeId, runtime, side)) {
      const front = this.d.front;
      this.d.events.emitAccepted(
        { nodeId: r.nodeId, receivedAt: r.receivedAt, report, view: () => front.view(r.nodeId) },
        (err) => this.d.log.error({ err, nodeId: r.nodeId }, 'accepted-report listener failed'),
      );
    }
    return { update: await this.manifest(r.nodeId, report.version) };
  }

  /** Store failures answer 503 (the node retries next round); the cause goes to the log only. */
  private async unavailableOnFailure<T>(op: () => T | Promise<T>, nodeId: number): Promise<T> {
    try {
      return await op();
    } catch (err) {
      this.d.log.error({ err, nodeId }, 'metrics report could not be stored');
      throw new AppError('service_unavailable', 'the report could not be stored', { cause: err });
    }
  }

  private async manifest(nodeId: number, version: string): Promise<UpdateManifest | null> {
    try {
      return await this.d.offers.manifestFor(nodeId, version);
    } catch (err) {
      this.d.log.error({ err, nodeId }, 'update manifest could not be resolved');
      return null;
    }
  }
}

function expired(): AppError {
  return new AppError(
    'service_unavailable',
    'the report could not be stored within 5 seconds of receipt',
  );
}
