/**
 * Process-wide ingest queue counters for Dash's own metrics, updated in O(1) where reports
 * enter a backend's queue and where batches leave it (every backend of the process adds up).
 */
export const ingestStats = {
  /** Reports waiting in a backend queue for the next batch. */
  queued: 0,
  /** Batches handed to a database writer. */
  batches: 0,
  /** Reports in those batches. */
  batchedReports: 0,
};

export function countBatch(size: number): void {
  ingestStats.queued -= size;
  ingestStats.batches++;
  ingestStats.batchedReports += size;
}
