import type pg from 'pg';
import { dayStart, ensurePartitionDays } from './partitions.js';

const DAY_MS = 86_400_000;

/**
 * Remembers which UTC days have history partitions, so a write whose times fall outside them (a
 * clock that jumped, a node's old data, a job that did not run) creates the missing days first
 * instead of failing. Costs nothing for writes on known days.
 */
export class PartitionGuard {
  private readonly known = new Set<number>();

  constructor(private readonly pool: pg.Pool) {}

  /** Days touching [from, to] are known to have partitions in every partitioned table. */
  covered(from: number, to: number): void {
    for (let day = dayStart(from); day <= to; day += DAY_MS) this.known.add(day);
  }

  /** Makes sure the days holding these times have partitions (on its own connection). */
  async ensure(times: Iterable<number>): Promise<void> {
    const missing = new Set<number>();
    for (const t of times) {
      const day = dayStart(t);
      if (!this.known.has(day)) missing.add(day);
    }
    if (missing.size === 0) return;
    await ensurePartitionDays(this.pool, missing);
    for (const day of missing) this.known.add(day);
  }

  /** Forgets what it knew (after partitions were dropped). */
  reset(): void {
    this.known.clear();
  }
}
