import type BetterSqlite3 from 'better-sqlite3';
import type { CoreResult, RawReport, ReportProcessor } from '../domain/ingest/ingest-core.js';
import type { RenderFacts } from '../domain/front/render.js';
import type { Logger } from '../platform/logger.js';
import type { MetricsMaintenance } from '../store/ports.js';
import { createIngestHost } from './ingest-host.js';
import { startIngestWorker } from './ingest-worker-client.js';

/** The metrics side of Dash as the HTTP thread sees it. */
export interface IngestBackend extends ReportProcessor, MetricsMaintenance {
  /** Keeps the pipeline's copy of what node views are rendered from in step (null: gone). */
  setRenderFacts(nodeId: number, facts: RenderFacts | null): void;
  /** Waits until every report handed over so far is answered. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/** Everything on the calling thread (in-memory databases, where no second connection exists). */
export function inlineIngestBackend(
  db: BetterSqlite3.Database,
  now: () => number,
  staleAfterSec: number,
): IngestBackend {
  const host = createIngestHost(db, now, staleAfterSec);
  let queued: Array<{ report: RawReport; resolve: (r: CoreResult) => void }> = [];
  let idle: Array<() => void> = [];
  // Reports of one tick share a transaction, as they do on the worker thread.
  const flush = () => {
    const batch = queued;
    queued = [];
    const results = host.core.processBatch(batch.map((q) => q.report));
    batch.forEach((q, i) => q.resolve(results[i]!));
    for (const done of idle.splice(0)) done();
  };
  return {
    process(report: RawReport): Promise<CoreResult> {
      if (queued.length === 0) setImmediate(flush);
      return new Promise((resolve) => queued.push({ report, resolve }));
    },
    setRenderFacts: (nodeId, facts) => host.core.setFacts(nodeId, facts),
    rollup: (at) => host.runner.handle({ type: 'rollup', now: at }),
    retention: (at, days) =>
      host.runner.handle({ type: 'retention', now: at, rawRetentionDays: days }),
    async drain() {
      if (queued.length > 0) await new Promise<void>((resolve) => idle.push(resolve));
    },
    async close() {
      await this.drain();
      idle = [];
    },
  };
}

/**
 * The pipeline on a worker thread with its own connection to the database file: decoding,
 * validation, derivation and commits all leave the HTTP thread, which only moves bytes.
 */
export function workerIngestBackend(
  path: string,
  log: Logger,
  now: () => number,
  staleAfterSec: number,
): IngestBackend {
  return startIngestWorker(path, log, now, staleAfterSec);
}
