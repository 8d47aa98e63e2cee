import type { RenderFacts } from '../domain/front/render.js';
import type { ReportProcessor } from '../domain/ingest/ingest-core.js';
import type { MetricsMaintenance, TrafficBatch } from '../store/ports.js';

/** The metrics side of Dash as the HTTP thread sees it (a worker pool, or inline). */
export interface IngestBackend extends ReportProcessor, MetricsMaintenance {
  /** Keeps the pipeline's copy of what node views are rendered from in step (null: gone). */
  setRenderFacts(nodeId: number, facts: RenderFacts | null): void;
  /**
   * Stores a batch of the traffic collector's rows on the ingest writer connection, so its
   * statements (and their commit) do not run on the HTTP thread. Only the SQLite backends
   * have one; elsewhere the collector writes through its repository. Resolves with how long
   * the transaction held the ingest thread (ms), which paces the collector's next chunks.
   */
  applyTraffic?(batch: TrafficBatch): Promise<number | undefined>;
  /**
   * Resolves once the pipeline can take reports without waiting for its threads to load (the
   * worker backends; the others are always ready).
   */
  ready?(): Promise<void>;
  /**
   * Seals the closed windows of this thread's open-block log (docs/ingest-disk-writes.md); a
   * thread's `rollup` does it for its own log first. Only SQLite's ingest threads have one.
   */
  sealOpenLog?(now: number, sealMs?: number): Promise<void>;
  /** Waits until every report handed over so far is answered. */
  drain(): Promise<void>;
  close(): Promise<void>;
}
