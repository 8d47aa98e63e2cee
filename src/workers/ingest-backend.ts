import type BetterSqlite3 from 'better-sqlite3';
import type { CoreResult, RawReport } from '../domain/ingest/ingest-core.js';
import type { IngestBackend } from './ingest-backend-port.js';
import type { Logger } from '../platform/logger.js';
import { createIngestHost } from './ingest-host.js';
import { availableParallelism } from 'node:os';
import { startIngestWorker } from './ingest-worker-client.js';
import { WriteLock } from './write-lock.js';
import { BatchQueue, INGEST_BATCH_SIZE } from './batch-queue.js';

export type { IngestBackend } from './ingest-backend-port.js';

/** Everything on the calling thread (in-memory databases, where no second connection exists). */
export function inlineIngestBackend(
  db: BetterSqlite3.Database,
  now: () => number,
  staleAfterSec: number,
  maxDevicesPerNode?: number,
): IngestBackend {
  const host = createIngestHost(db, now, staleAfterSec, undefined, maxDevicesPerNode);
  let idle: Array<() => void> = [];
  // Reports of one tick share a transaction, as they do on the worker thread.
  const queue = new BatchQueue<{ report: RawReport; resolve: (r: CoreResult) => void }>(
    INGEST_BATCH_SIZE,
    (batch) => {
      const results = host.core.processBatch(batch.map((q) => q.report));
      batch.forEach((q, i) => q.resolve(results[i]!));
      if (queue.length === 0) for (const done of idle.splice(0)) done();
    },
  );
  return {
    process(report: RawReport): Promise<CoreResult> {
      return new Promise((resolve) => queue.push({ report, resolve }));
    },
    setRenderFacts: (nodeId, facts) => host.core.setFacts(nodeId, facts),
    rollup: (at, sealMs) => host.runner.handle({ type: 'rollup', now: at, sealMs }),
    retention: (at, days, maxBytes) =>
      host.runner.handle({ type: 'retention', now: at, rawRetentionDays: days, maxBytes }),
    applyTraffic: (batch) => host.runner.handle({ type: 'traffic', batch }),
    async drain() {
      if (queue.length > 0) await new Promise<void>((resolve) => idle.push(resolve));
    },
    async close() {
      await this.drain();
      idle = [];
    },
  };
}

/**
 * Ingest threads for the `ingest_threads` setting: the setting when it names a count, otherwise
 * one per core, at least one and at most two. One thread beside the HTTP thread would use both
 * cores of a 2-core machine, and it saves its heap, young generation and SQLite cache, but
 * measured on a shared 2-core machine it halved saturation (the one thread got less of the
 * contended cores than two), so two stay the default there and `ingest_threads: 1` is the
 * operator's choice for a small machine (docs/ingest-performance.md, "Memory").
 */
export function ingestThreadsFor(setting: number, cores: number = availableParallelism()): number {
  if (setting > 0) return setting;
  return Math.max(1, Math.min(2, cores));
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
  opts: { threads?: number; maxDevicesPerNode?: number; commitDelayMs?: number } = {},
): IngestBackend {
  const { threads = ingestThreadsFor(0), maxDevicesPerNode, commitDelayMs } = opts;
  if (threads <= 1) {
    return startIngestWorker(path, log, now, staleAfterSec, {
      shard: 0,
      maxDevicesPerNode,
      commitDelayMs,
    });
  }
  const writeLock = WriteLock.buffer();
  const shards = Array.from({ length: threads }, (_, shard) =>
    startIngestWorker(path, log, now, staleAfterSec, {
      shard,
      writeLock,
      maxDevicesPerNode,
      commitDelayMs,
    }),
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
    // Each thread seals its own log, one thread after the other (the others first, then the
    // first one's rollup seals its own and reads them all): two seals at once took both ingest
    // threads and the write slot together, and the open loop queued behind them
    // (docs/ingest-performance.md, "Seal and rollup pacing"). What is durable and readable
    // does not change: each log's seal moves its own watermark, and readers take each node's
    // points from its log's marks.
    rollup: async (at, sealMs) => {
      for (const s of shards.slice(1)) await s.sealOpenLog?.(at, sealMs);
      return first.rollup(at, sealMs);
    },
    retention: (at, days, maxBytes) => first.retention(at, days, maxBytes),
    applyTraffic: first.applyTraffic && ((batch) => first.applyTraffic!(batch)),
    async ready() {
      await Promise.all(shards.map((s) => s.ready?.() ?? Promise.resolve()));
    },
    async drain() {
      await Promise.all(shards.map((s) => s.drain()));
    },
    async close() {
      await Promise.all(shards.map((s) => s.close()));
    },
  };
}
