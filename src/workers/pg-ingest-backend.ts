import {
  commitFailure,
  notStored,
  ReportPreparer,
  type CoreResult,
  type PreparedBatch,
  type RawReport,
} from '../domain/ingest/ingest-core.js';
import { nodeReportDecoder } from '../protocol/decode-node-report.js';
import type {
  AsyncBatchCommitter,
  MetricsMaintenance,
  MetricsWriteOutcome,
} from '../store/ports.js';
import type { IngestBackend } from './ingest-backend-port.js';
import { BatchQueue, INGEST_BATCH_SIZE } from './batch-queue.js';
import { inlinePreparer, type BatchPreparer } from './batch-preparer.js';

/**
 * Most reports in one PostgreSQL transaction. Batches prepared while a commit is in flight are
 * merged into the next one up to this size: a commit's round trips and WAL flush cost about the
 * same for 10 rows as for 1,000, so under load the commits grow instead of queueing up.
 */
export const PG_COMMIT_MAX_REPORTS = 1024;

interface Prepared {
  batch: PreparedBatch;
  answer: Array<(r: CoreResult) => void>;
}

export interface PgIngestBackendOptions {
  now: () => number;
  staleAfterSec: number;
  /** Reports per prepared batch (one event-loop turn); INGEST_BATCH_SIZE by default. */
  batchSize?: number;
  /** Reports per commit; PG_COMMIT_MAX_REPORTS by default. */
  commitMaxReports?: number;
  /**
   * Where batches are decoded, checked and rendered: worker threads (`preparePool`) in
   * `dash serve`; on the calling thread when not given. Closed with the backend.
   */
  preparer?: BatchPreparer;
}

/**
 * The ingest backend on PostgreSQL: reports handed over in one turn are decoded and rendered
 * together (the BatchQueue rule of the SQLite backends) by the preparer (worker threads in
 * `dash serve`, as SQLite decodes on its ingest threads), then committed over the pool from
 * this thread one transaction at a time, in the order the batches were handed over; whatever
 * is prepared while a commit runs waits and goes in the next one. Each report is answered only
 * after its transaction's COMMIT returned (with `synchronous_commit = on`, on disk); a commit
 * that fails answers every report of it with 503, a batch the preparer could not prepare (a
 * thread died) answers 503, and a report whose deadline passes before COMMIT is left out and
 * answers 503, exactly as on SQLite.
 */
export function pgIngestBackend(
  committer: AsyncBatchCommitter,
  maintenance: MetricsMaintenance,
  opts: PgIngestBackendOptions,
): IngestBackend {
  const core = new ReportPreparer(
    nodeReportDecoder(),
    opts.now,
    opts.staleAfterSec,
    () => committer.maxDevicesPerNode,
  );
  const preparer = opts.preparer ?? inlinePreparer(core);
  const commitMax = opts.commitMaxReports ?? PG_COMMIT_MAX_REPORTS;
  /** Batches handed to the preparer, in order; each becomes ready once it and all before it are. */
  const preparing: Array<{ done: Prepared | null }> = [];
  const ready: Prepared[] = [];
  let committing = false;
  let pending = 0;
  let idle: Array<() => void> = [];

  function promote(): void {
    while (preparing[0]?.done) {
      const p = preparing.shift()!.done!;
      if (p.batch.writes.length === 0) settle(p, []);
      else ready.push(p);
    }
    void commitLoop();
  }

  const queue = new BatchQueue<{ report: RawReport; resolve: (r: CoreResult) => void }>(
    opts.batchSize ?? INGEST_BATCH_SIZE,
    (items) => {
      const answer = items.map((q) => q.resolve);
      const slot: { done: Prepared | null } = { done: null };
      preparing.push(slot);
      preparer.prepare(items.map((q) => q.report)).then(
        (batch) => {
          slot.done = { batch, answer };
          promote();
        },
        (err: unknown) => {
          // Nothing of it reached the database: every report answers 503.
          const failed = notStored(err instanceof Error ? err.message : String(err));
          const prepared = items.map(() => ({ ok: false as const, result: failed }));
          slot.done = { batch: { prepared, writes: [] }, answer };
          promote();
        },
      );
    },
  );

  function settle(p: Prepared, outcomes: readonly MetricsWriteOutcome[], failure?: CoreResult) {
    const results = core.settleBatch(p.batch, outcomes, failure);
    p.answer.forEach((resolve, i) => resolve(results[i]!));
    pending -= p.answer.length;
    if (pending === 0) for (const done of idle.splice(0)) done();
  }

  /** Takes whole prepared batches up to the commit size (always at least one). */
  function nextCommit(): Prepared[] {
    const take: Prepared[] = [];
    let size = 0;
    while (ready.length > 0) {
      const next = ready[0]!;
      if (take.length > 0 && size + next.batch.writes.length > commitMax) break;
      size += next.batch.writes.length;
      take.push(ready.shift()!);
    }
    return take;
  }

  async function commitLoop(): Promise<void> {
    if (committing) return;
    committing = true;
    try {
      for (let take = nextCommit(); take.length > 0; take = nextCommit()) {
        const writes = take.flatMap((p) => p.batch.writes);
        let outcomes: MetricsWriteOutcome[];
        try {
          outcomes = await committer.commitBatch(writes);
        } catch (err) {
          for (const p of take) settle(p, [], commitFailure(err));
          continue;
        }
        let at = 0;
        for (const p of take) {
          const n = p.batch.writes.length;
          settle(p, outcomes.slice(at, at + n));
          at += n;
        }
      }
    } finally {
      committing = false;
    }
  }

  return {
    process(report: RawReport): Promise<CoreResult> {
      pending++;
      return new Promise((resolve) => queue.push({ report, resolve }));
    },
    setRenderFacts: (nodeId, facts) => preparer.setFacts(nodeId, facts),
    rollup: (at, sealMs) => maintenance.rollup(at, sealMs),
    retention: (at, days, maxBytes) => maintenance.retention(at, days, maxBytes),
    async drain() {
      if (pending > 0) await new Promise<void>((resolve) => idle.push(resolve));
    },
    async close() {
      await this.drain();
      idle = [];
      await preparer.close();
    },
  };
}
