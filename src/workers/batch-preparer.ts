import type { RenderFacts } from '../domain/front/render.js';
import type { PreparedBatch, RawReport, ReportPreparer } from '../domain/ingest/ingest-core.js';

/**
 * Where an engine whose commit is awaited (PostgreSQL) has its batches decoded, checked and
 * rendered (`ReportPreparer.prepareBatch`): on the calling thread, or on worker threads
 * (`prepare-pool.ts`). The batch comes back in the order of `reports`; a preparer that cannot
 * prepare it (a thread died) rejects, and the caller answers those reports 503.
 */
export interface BatchPreparer {
  prepare(reports: RawReport[]): Promise<PreparedBatch>;
  /** What each node's view body is rendered from (null: the node is gone). */
  setFacts(nodeId: number, facts: RenderFacts | null): void;
  close(): Promise<void>;
}

/** Preparation on the calling thread (tests, and hosts with a single core). */
export function inlinePreparer(core: ReportPreparer): BatchPreparer {
  return {
    prepare: (reports) => Promise.resolve(core.prepareBatch(reports)),
    setFacts: (nodeId, facts) => core.setFacts(nodeId, facts),
    close: () => Promise.resolve(),
  };
}
