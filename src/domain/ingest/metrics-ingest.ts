import { AppError } from '../../errors/app-error.js';
import type { Clock } from '../../platform/clock.js';
import type { NodeView } from '../../protocol/front-view.js';
import type { Logger } from '../../platform/logger.js';
import type { FrontState } from '../front/front-state.js';
import type { UpdateManifest, UpdateOffers } from '../nodes/update-offers.js';
import type { ReportProcessor } from './ingest-core.js';
import type { ReportEvents } from './report-events.js';
import type { IngestObserver } from './ingest-observer.js';
import { alertReadings } from '../alerts/readings.js';

/** Spec §4.4 rule 2: a report must be persisted within 5 s of receipt, or not at all. */
export const METRICS_PERSIST_BUDGET_MS = 5000;

export interface MetricsIngestDeps {
  clock: Clock;
  log: Logger;
  processor: ReportProcessor;
  front: FrontState;
  events: ReportEvents;
  offers: UpdateOffers;
  /** Told of every stored report, current or not (uptime counts them all). */
  receipts: { recordReceipt(nodeId: number, receivedAt: number): void };
  /** Dash's own metrics (only when /metrics is enabled). */
  observer?: IngestObserver;
}

export interface IncomingReport {
  nodeId: number;
  /** When the request arrived; the persistence budget and the projection order start here. */
  receivedAt: number;
  /** The raw body: it is decoded next to the writer, off the HTTP thread. */
  body: Uint8Array | undefined;
  ip: string | null;
  /** The body buffer is not used by the caller after this call (see RawReport). */
  bodyDisposable?: boolean;
}

/**
 * POST /api/node/metrics: hands the report to the processor (decode, validate, store durably),
 * then, when it became the node's current projection by receive order, refreshes the front
 * view and tells subscribers; finally answers any pending update manifest.
 */
export class MetricsIngest {
  constructor(private readonly d: MetricsIngestDeps) {}

  accept(r: IncomingReport): Promise<{ update: UpdateManifest | null }> {
    const observer = this.d.observer;
    if (!observer) return this.process(r);
    observer.reportStarted();
    const settle = (result: string) =>
      observer.reportSettled(result, Math.max(0, this.d.clock.now() - r.receivedAt) / 1000);
    return this.process(r).then(
      (answer) => {
        settle('ok');
        return answer;
      },
      (err: unknown) => {
        settle(err instanceof AppError ? err.code : 'internal_error');
        throw err;
      },
    );
  }

  private async process(r: IncomingReport): Promise<{ update: UpdateManifest | null }> {
    const deadline = r.receivedAt + METRICS_PERSIST_BUDGET_MS;
    if (this.d.clock.now() > deadline) throw expired();
    let meta;
    try {
      meta = await this.d.front.ensureNode(r.nodeId);
    } catch (err) {
      this.d.log.error({ err, nodeId: r.nodeId }, 'node record could not be read');
      throw notStored(err);
    }
    if (!meta) throw new AppError('unauthorized', 'the node no longer exists');
    // The event goes to listeners subscribed when the report arrived (they start with Dash).
    const listened = this.d.events.hasListeners;
    const res = await this.d.processor
      .process({
        nodeId: r.nodeId,
        receivedAt: r.receivedAt,
        deadline,
        body: r.body,
        ip: r.ip,
        bodyDisposable: r.bodyDisposable === true,
      })
      .catch((err: unknown) => {
        this.d.log.error({ err, nodeId: r.nodeId }, 'metrics report could not be processed');
        throw notStored(err);
      });
    if (!res.ok) {
      if (res.detail) this.d.log.error({ nodeId: r.nodeId, detail: res.detail }, res.message);
      throw new AppError(res.code, res.message);
    }
    this.d.receipts.recordReceipt(r.nodeId, r.receivedAt);
    const view = res.view;
    const applied =
      res.outcome === 'current' &&
      ('runtime' in view
        ? this.d.front.apply(r.nodeId, view.runtime, view.side)
        : this.d.front.applyRendered(
            r.nodeId,
            r.receivedAt,
            'bodyJson' in view ? view.bodyJson : view.bodyBytes,
          ));
    // Listeners get what the ingest thread took from the report beside its decode: no parse
    // here. Without a listener, no event object and closures per report.
    if (applied && listened) {
      const front = this.d.front;
      const nodeId = r.nodeId;
      this.d.events.emitAccepted(
        {
          nodeId,
          receivedAt: r.receivedAt,
          counters: res.digest.counters,
          // Rendered here rather than beside the decode (rare): read from the installed view.
          readings: res.digest.readings ?? readingsOf(front.view(nodeId)),
          view: () => front.view(nodeId),
        },
        (err) => this.d.log.error({ err, nodeId }, 'accepted-report listener failed'),
      );
    }
    return { update: await this.manifest(r.nodeId, res.version) };
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

const readingsOf = (view: NodeView | undefined) => (view ? alertReadings(view) : undefined);

function notStored(cause: unknown): AppError {
  return new AppError('service_unavailable', 'the report could not be stored', { cause });
}

function expired(): AppError {
  return new AppError(
    'service_unavailable',
    'the report could not be stored within 5 seconds of receipt',
  );
}
