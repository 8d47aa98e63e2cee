import { countBatch, ingestStats } from './ingest-stats.js';

/**
 * Reports per batch (one message to a worker, one transaction there). Small enough that both
 * threads stay busy at once, large enough that a commit (and its fsync) serves many reports.
 */
export const INGEST_BATCH_SIZE = 64;

/**
 * The one batching rule of the ingest backends: reports handed over in one event-loop turn
 * leave together, at most `max` per batch (a full batch leaves at once, so the writer starts on
 * it while this thread reads more). Keeps Dash's own queue counters.
 */
export class BatchQueue<T> {
  private items: T[] = [];
  private scheduled = false;

  constructor(
    private readonly max: number,
    private readonly send: (batch: T[]) => void,
  ) {}

  get length(): number {
    return this.items.length;
  }

  push(item: T): void {
    this.items.push(item);
    ingestStats.queued++;
    if (this.items.length >= this.max) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      });
    }
  }

  private flush(): void {
    if (this.items.length === 0) return;
    const batch = this.items;
    this.items = [];
    countBatch(batch.length);
    this.send(batch);
  }
}
