import type { Agg } from './rollup-codec.js';

/** Buckets of one series of one node in one rollup table, oldest first, [from, until). */
interface CachedSeries {
  from: number;
  until: number;
  /** Bucket start of each agg; a device series may hold several aggs (devices) per bucket. */
  starts: number[];
  aggs: Agg[];
}

/** Loads the aggs of buckets starting in [from, until), oldest first, through `push`. */
export type SeriesLoader = (
  from: number,
  until: number,
  push: (bucketStart: number, agg: Agg) => void,
) => void;

/**
 * Decoded rollup series of recent history reads. Buckets below the rollup watermark are never
 * rewritten (the rollup job only writes at or after it, retention only drops buckets older than
 * any range reads), so a repeated read — a dashboard refreshing a chart — only loads the buckets
 * materialised since, instead of re-reading hundreds of 2 KB rollup rows. Bounded: a few
 * recently used series, each at most `keepMs` long.
 */
export class RollupSeriesCache {
  private readonly entries = new Map<string, CachedSeries>();

  constructor(
    private readonly maxEntries = 64,
    private readonly keepMs = 32 * 86_400_000,
  ) {}

  /**
   * Visits, oldest first, the aggs of buckets starting in [from, until), both bucket-aligned and
   * `until` no later than the watermark; loads only what the cache lacks.
   */
  fold(
    key: string,
    from: number,
    until: number,
    load: SeriesLoader,
    visit: (bucketStart: number, agg: Agg) => void,
  ): void {
    let e = this.entries.get(key);
    this.entries.delete(key);
    // A wider window than cached, or a watermark that moved back: start over.
    if (!e || from < e.from || until < e.until) e = { from, until: from, starts: [], aggs: [] };
    if (e.until < until) {
      const entry = e;
      load(e.until, until, (start, agg) => {
        entry.starts.push(start);
        entry.aggs.push(agg);
      });
      e.until = until;
    }
    this.trim(e, from);
    this.entries.set(key, e);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    for (let i = firstAtOrAfter(e.starts, from); i < e.starts.length; i++) {
      const start = e.starts[i] as number;
      if (start >= until) break;
      visit(start, e.aggs[i] as Agg);
    }
  }

  /** Drops buckets older than keepMs, never those of the read at hand. */
  private trim(e: CachedSeries, from: number): void {
    const keepFrom = Math.min(from, e.until - this.keepMs);
    if (e.from >= keepFrom) return;
    const drop = firstAtOrAfter(e.starts, keepFrom);
    e.starts.splice(0, drop);
    e.aggs.splice(0, drop);
    e.from = keepFrom;
  }
}

function firstAtOrAfter(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
