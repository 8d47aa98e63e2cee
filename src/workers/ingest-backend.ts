import type BetterSqlite3 from 'better-sqlite3';
import type { CoreResult, RawReport, ReportProcessor } from '../domain/ingest/ingest-core.js';
import type { Logger } from '../platform/logger.js';
import type { MetricsMaintenance } from '../store/ports.js';
import { createIngestHost } from './ingest-host.js';
import { startIngestWorker } from './ingest-worker-client.js';

/** The metrics side of Dash as the HTTP thread sees it. */
export interface IngestBackend extends ReportProcessor, MetricsMaintenance {
  /** Waits until every report handed over so far is answered. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/** Everything on the calling thread (in-memory databases, where no second connection exists). */
export function inlineIngestBackend(db: BetterSqlite3.Database, now: () => number): IngestBackend {
  const host = createIngestHost(db, now);
  let pending = 0;
  let idle: Array<() => void> = [];
  return {
    async process(r: RawReport): Promise<CoreResult> {
      pending++;
      try {
        return await host.core.process(r);
      } finally {
        if (--pending === 0) for (const done of idle.splice(0)) done();
      }
    },
    rollup: (at) => host.runner.handle({ type: 'rollup', now: at }),
    retention: (at, days) =>
      host.runner.handle({ type: 'retention', now: at, rawRetentionDays: days }),
    async drain() {
      if (pending > 0) await new Promise<void>((resolve) => idle.push(resolve));
      await host.writer.drain();
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
export function workerIngestBackend(path: string, log: Logger, now: () => number): IngestBackend {
  return startIngestWorker(path, log, now);
}
