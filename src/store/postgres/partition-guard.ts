import type pg from 'pg';
import { ensurePartitions } from './partitions.js';

const DAY_MS = 86_400_000;

/**
 * Remembers which days have history partitions, so a write whose times fall outside them (a
 * clock that jumped, a node's old data, a job that did not run) creates the missing days first
 * instead of failing. Costs nothing for writes inside the known span.
 */
export class PartitionGuard {
  private from = Number.POSITIVE_INFINITY;
  private to = Number.NEGATIVE_INFINITY;

  constructor(private readonly pool: pg.Pool) {}

  /** Days [from, to) known to have partitions in every partitioned table. */
  covered(from: number, to: number): void {
    this.from = Math.min(this.from, Math.floor(from / DAY_MS) * DAY_MS);
    this.to = Math.max(this.to, (Math.floor(to / DAY_MS) + 1) * DAY_MS);
  }

  /** Makes sure times in [min, max] have partitions (on its own connection, committed). */
  async ensure(min: number, max: number): Promise<void> {
    if (min >= this.from && max < this.to) return;
    await ensurePartitions(this.pool, min, max);
    if (this.from === Number.POSITIVE_INFINITY) this.covered(min, max);
    else this.covered(Math.min(min, this.from), Math.max(max, this.to - 1));
  }

  /** Forgets the span (after partitions were dropped). */
  reset(): void {
    this.from = Number.POSITIVE_INFINITY;
    this.to = Number.NEGATIVE_INFINITY;
  }
}
