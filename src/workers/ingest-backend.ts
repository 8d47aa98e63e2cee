import type BetterSqlite3 from 'better-sqlite3';
import type { CoreResult, RawReport, ReportProcessor } from '../domain/ingest/ingest-core.js';
import type { RenderFacts } from '../domain/front/render.js';
import type { Logger } from '../platform/logger.js';
import type { MetricsMaintenance } from '../store/ports.js';
import { createIngestHost } from './ingest-host.js';
import { availableParallelism } from 'node:os';
import { startIngestWorker } from './ingest-worker-client.js';
import { WriteLock } from './write-lock.js';
import { countBatch, ingestStats } from './ingest-stats.js';

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
  maxDevicesPerNode?: number,
): IngestBackend {
  const host = createIngestHost(db, now, staleAfterSec, undefined, maxDevicesPerNode);
  let queued: Array<{ report: RawReport; resolve: (r: CoreResult) => void }> = [];
  let idle: Array<() => void> = [];
  // Reports of one tick share a transaction, as they do on the worker thread.
  const flush = () => {
    const batch = queued;
    queued = [];
    countBatch(batch.length);
    const results = host.core.processBatch(batch.map((q) => q.report));
    batch.forEach((q, i) => q.resolve(results[i]!));
    for (const done of idle.splice(0)) done();
  };
  return {
    process(report: RawReport): Promise<CoreResult> {
      if (queued.length === 0) setImmediate(flush);
      ingestStats.queued++;
      return new Promise((resolve) => queued.push({ report, resolve }));
    },
    setRenderFacts: (nodeId, facts) => host.core.setFacts(nodeId, facts),
    rollup: (at, sealMs) => host.runner.handle({ type: 'rollup', now: at, sealMs }),
    retention: (at, days, maxBytes) =>
      host.runner.handle({ type: 'retention', now: at, rawRetentionDays: days, maxBytes }),
    async drain() {
      if (queued.length > 0) await new Promise<void>((resolve) => idle.push(resolve));
    },
    async close() {
      await this.drain();
      idle = [];
    },
  };
}

/** Ingest threads: one per core beyond the HTTP thread's, at least one, at most two. */
export function defaultIngestThreads(): number {
  return Math.max(1, Math.min(2, availableParallelism()));
}

/**
 * The pipeline on worker threads, each with its own connection to the database file: decoding,
 * validation, rendering and commits all leave the HTTP thread, which only moves bytes. With
 * several threads each owns a fixed share of the nodes (node id modulo the thread count), so a
 * node's reports keep their order and its caches live in one place; commits take turns through
 * a shared write lock; rollups and retention run on the first thread.
 */
export function workerIngestBackend(
  path: string,
  log: Logger,
  now: () => number,
  staleAfterSec: number,
  opts: { threads?: number; maxDevicesPerNode?: number } = {},
): IngestBackend {
  const { threads = defaultIngestThreads(), maxDevicesPerNode } = opts;
  if (threads <= 1) {
    return startIngestWorker(path, log, now, staleAfterSec, { shard: 0, maxDevicesPerNode });
  }
  const writeLock = WriteLock.buffer();
  const shards = Array.from({ length: threads }, (_, shard) =>
    startIngestWorker(path, log, now, staleAfterSec, { shard, writeLock, maxDevicesPerNode }),
  );
  return shardedIngestBackend(shards);
}

export function shardedIngestBackend(shards: readonly IngestBackend[]): IngestBackend {
  const first = shards[0];
  if (!first) throw new Error('at least one ingest shard is needed');
  const of = (nodeId: number) => shards[nodeId % shards.length] ?? first;
  return {
    process: (r) => of(r.nodeId).process(r),
    setRenderFacts: (nodeId, facts) => of(nodeId).setRenderFacts(nodeId, facts),
    rollup: (at, sealMs) => first.rollup(at, sealMs),
    retention: (at, days, maxBytes) => first.retention(at, days, maxBytes),
    async drain() {
      await Promise.all(shards.map((s) => s.drain()));
    },
    async close() {
      await Promise.all(shards.map((s) => s.close()));
    },
  };
}
