import { AppError } from '../../errors/app-error.js';
import type { NodeReport } from '../../protocol/node-report.js';
import type { BatchCommitter, MetricsWrite, MetricsWriteOutcome } from '../../store/ports.js';
import { bodyJson, renderBody, type RenderFacts, type SidePayloads } from '../front/render.js';
import { runtimeView, type RuntimeView } from '../front/runtime-view.js';
import { pressureJson, pressureView, smartView, thermalView } from '../front/side-views.js';
import { historySample } from './history-sample.js';
import { bodyReadings, ifaceCounters, type ReportDigest } from './report-digest.js';
import { validateMetricsReport } from './validate-metrics.js';

/** One metrics request as it arrived: the body is still raw bytes. */
export interface RawReport {
  nodeId: number;
  receivedAt: number;
  /** Receipt + 5 s. */
  deadline: number;
  body: Uint8Array | undefined;
  ip: string | null;
  /**
   * The body is the caller's to give away: a worker backend may move its memory to the ingest
   * thread instead of copying it (the caller must not read it afterwards).
   */
  bodyDisposable?: boolean;
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
      view: ReportView;
      /** What the accepted-report listeners read, so they parse nothing. */
      digest: ReportDigest;
    };

/**
 * The report's front view: rendered here when the node's render facts are known (always, in
 * practice: the HTTP thread sends them before the node's first report), else the parts to
 * render it from.
 */
export type ReportView =
  | { bodyJson: string }
  /** bodyJson as UTF-8, as an ingest thread sends it (src/workers/packed-views.ts). */
  | { bodyBytes: Uint8Array }
  | { runtime: RuntimeView; side: SidePayloads };

/** Where reports are decoded, validated and stored (a worker thread, or inline). */
export interface ReportProcessor {
  process(report: RawReport): Promise<CoreResult>;
}

const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));

export type Prepared =
  | { ok: false; result: CoreResult }
  | { ok: true; write: MetricsWrite; version: string; view: ReportView; digest: ReportDigest };

/** A batch after decoding: what to commit, and how to answer each report once it is done. */
export interface PreparedBatch {
  readonly prepared: readonly Prepared[];
  /** The accepted reports' writes, in input order: the committer's input. */
  readonly writes: MetricsWrite[];
}

/**
 * The CPU-heavy part of POST /api/node/metrics, kept free of HTTP so it can run next to the
 * writer on its own thread: decode each body, apply the value rules, derive the front runtime
 * view, the SMART/thermal/pressure payloads and the history sample (`prepare`), and turn the
 * committer's outcomes into answers (`settle`). Failures come back as data (code + message),
 * never as thrown errors, so they cross threads. The commit between the two steps is the
 * engine's: synchronous on SQLite (`IngestCore`), awaited on PostgreSQL (`AsyncIngestCore`).
 */
export class ReportPreparer {
  private readonly facts = new Map<number, RenderFacts>();

  constructor(
    private readonly decode: (body: Uint8Array | undefined) => NodeReport,
    private readonly now: () => number,
    /** The view's observation.stale_after_sec. */
    private readonly staleAfterSec: number,
    /** Distinct devices one node may have, for the device_limit answer. */
    private readonly maxDevicesPerNode: () => number | undefined,
    /**
     * Serialise each write's runtime view here (`current.runtimeJson`) and leave the object
     * out: for an engine that stores the projection with every report, prepared on another
     * thread, a string crosses instead of an object graph.
     */
    private readonly runtimeAsJson = false,
  ) {}

  /** What each node's view body is rendered from, kept in step by the front state. */
  setFacts(nodeId: number, facts: RenderFacts | null): void {
    if (facts) this.facts.set(nodeId, facts);
    else this.facts.delete(nodeId);
  }

  prepareBatch(reports: readonly RawReport[]): PreparedBatch {
    const prepared = reports.map((r) => this.prepare(r));
    const writes: MetricsWrite[] = [];
    for (const p of prepared) if (p.ok) writes.push(p.write);
    return { prepared, writes };
  }

  /**
   * One answer per report: the committer's outcomes (one per write, in order), or the one
   * failure (a commit that threw) that every accepted report of the batch answers with.
   */
  settleBatch(
    batch: PreparedBatch,
    outcomes: readonly MetricsWriteOutcome[],
    failure?: CoreResult,
  ): CoreResult[] {
    let next = 0;
    return batch.prepared.map((p) => {
      if (!p.ok) return p.result;
      const outcome = outcomes[next++] ?? 'expired';
      if (failure) return failure;
      if (outcome === 'expired') return expired();
      if (outcome === 'device_limit') return deviceLimit(this.maxDevicesPerNode());
      return { ok: true, outcome, version: p.version, view: p.view, digest: p.digest };
    });
  }

  private prepare(r: RawReport): Prepared {
    try {
      if (this.now() > r.deadline) return { ok: false, result: expired() };
      const body = this.decode(r.body);
      const report = validateMetricsReport(body);
      const m = report.metrics;
      const runtime = runtimeView(m, r.receivedAt, report.reportedAt, body.timestamp ?? '');
      const smart = smartView(m.disk?.smart);
      const thermal = thermalView(m.thermal);
      const side: SidePayloads = {
        smartJson: json(smart),
        thermalJson: json(thermal),
        pressureJson: pressureJson(pressureView(m.pressure)),
      };
      const sample = historySample(m);
      const write: MetricsWrite = {
        nodeId: r.nodeId,
        receivedAt: r.receivedAt,
        deadline: r.deadline,
        host: sample.host,
        devices: sample.devices,
        current: this.runtimeAsJson
          ? {
              reportedAt: report.reportedAt,
              runtime: null,
              runtimeJson: JSON.stringify(runtime),
              ...side,
            }
          : { reportedAt: report.reportedAt, runtime, ...side },
        ip: r.ip,
      };
      // Rendering here, beside the decode, spares the HTTP thread both the rendering and the
      // copy of the runtime object across threads: a string crosses instead.
      const facts = this.facts.get(r.nodeId);
      const digest: ReportDigest = { counters: ifaceCounters(m) };
      let view: ReportView;
      if (facts) {
        const body = renderBody(facts, runtime, this.staleAfterSec);
        view = { bodyJson: bodyJson(body, side) };
        digest.readings = bodyReadings(body, smart, thermal);
      } else {
        view = { runtime, side };
      }
      return { ok: true, write, version: report.version, view, digest };
    } catch (err) {
      if (
        err instanceof AppError &&
        (err.code === 'invalid_request' || err.code === 'invalid_metrics')
      ) {
        return { ok: false, result: { ok: false, code: err.code, message: err.message } };
      }
      // A defect, not the sender's fault: answer 503 and keep the cause for the log.
      return {
        ok: false,
        result: notStored(err instanceof Error ? (err.stack ?? err.message) : String(err)),
      };
    }
  }
}

/**
 * SQLite's pipeline: one batch in, one synchronous commit, one batch of answers out, which keeps
 * the HTTP thread and the ingest thread working side by side instead of taking turns.
 */
export class IngestCore extends ReportPreparer {
  constructor(
    decode: (body: Uint8Array | undefined) => NodeReport,
    private readonly committer: BatchCommitter,
    now: () => number,
    staleAfterSec: number,
  ) {
    super(decode, now, staleAfterSec, () => committer.maxDevicesPerNode);
  }

  processBatch(reports: readonly RawReport[]): CoreResult[] {
    const batch = this.prepareBatch(reports);
    if (batch.writes.length === 0) return this.settleBatch(batch, []);
    try {
      return this.settleBatch(batch, this.committer.commitBatch(batch.writes));
    } catch (err) {
      return this.settleBatch(batch, [], commitFailure(err));
    }
  }
}

/** The answer of every accepted report of a batch whose commit threw. */
export function commitFailure(err: unknown): CoreResult {
  return notStored(err instanceof Error ? err.message : String(err));
}

/**
 * The one failure answer for a report Dash could not store for reasons of its own (503): a
 * commit or WAL sync that failed, a worker that died, a defect. The detail is for the log only.
 */
export function notStored(detail: string): CoreResult {
  return {
    ok: false,
    code: 'service_unavailable',
    message: 'the report could not be stored',
    detail,
  };
}

function deviceLimit(max: number | undefined): CoreResult {
  const limit = max === undefined ? 'its limit' : `its limit of ${max}`;
  return {
    ok: false,
    code: 'invalid_metrics',
    message:
      `the report names new devices beyond this node's ${limit} distinct devices ` +
      '(interfaces, disks, mounts, sensors; setting node_max_devices) and was not stored',
  };
}

function expired(): CoreResult {
  return {
    ok: false,
    code: 'service_unavailable',
    message: 'the report could not be stored within 5 seconds of receipt',
  };
}
