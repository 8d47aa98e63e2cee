import type { Agg } from '../sqlite/rollup-codec.js';

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

/** SeriesLoader for engines that fetch asynchronously (PostgreSQL). */
export type AsyncSeriesLoader = (
  from: number,
  until: number,
  push: (bucketStart: number, agg: Agg) => void,
) => Promise<void>;

type Visit = (bucketStart: number, agg: Agg) => void;

/**
 * Decoded rollup series of recent history reads, for either engine. Buckets below the rollup
 * watermark are never rewritten (the rollup job only writes at or after it, retention only drops
 * buckets older than any range reads), so a repeated read — a dashboard refreshing a chart —
 * only loads the buckets materialised since, instead of re-reading hundreds of 2 KB rollup rows.
 * Callers pass as `until` a watermark read together with the rows the loader returns (one
 * SQLite read or one PostgreSQL snapshot): then every cached bucket was final when loaded, even
 * when another instance's rollup job writes the rows. Bounded: a few recently used series, each
 * at most `keepMs` long.
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
  fold(key: string, from: number, until: number, load: SeriesLoader, visit: Visit): void {
    const e = this.reusable(key, from, until);
    if (e.until < until) {
      load(e.until, until, (start, agg) => {
        e.starts.push(start);
        e.aggs.push(agg);
      });
      e.until = until;
    }
    this.keep(key, e, from);
    visitRange(e, from, until, visit);
  }

  /**
   * fold() with an asynchronous loader. Reads of one key may interleave while the loader waits,
   * so this one never changes an entry in place: it loads into a copy, which it stores unless a
   * concurrent read already stored one reaching at least as far. Each read visits its own copy.
   */
  async foldAsync(
    key: string,
    from: number,
    until: number,
    load: AsyncSeriesLoader,
    visit: Visit,
  ): Promise<void> {
    const base = this.reusable(key, from, until);
    const e: CachedSeries = {
      from: base.from,
      until: base.until,
      starts: base.starts.slice(),
      aggs: base.aggs.slice(),
    };
    if (e.until < until) {
      await load(e.until, until, (start, agg) => {
        e.starts.push(start);
        e.aggs.push(agg);
      });
      e.until = until;
    }
    const now = this.entries.get(key);
    if (!now || now === base || now.until <= e.until) this.keep(key, e, from);
    visitRange(e, from, until, visit);
  }

  /**
   * Where a fold of [from, until) would start loading: the end of the cached buckets when the
   * entry can serve the range, else `from`. Lets an engine fetch those rows ahead, in the same
   * statement as the watermark (the fold still checks, and its loader covers any difference).
   */
  loadsFrom(key: string, from: number, until: number): number {
    return this.reusable(key, from, until).until;
  }

  /** The cached entry if it can serve [from, until), maybe after loading a newer end. */
  private reusable(key: string, from: number, until: number): CachedSeries {
    const e = this.entries.get(key);
    // A wider window than cached, or a watermark that moved back: start over.
    if (!e || from < e.from || until < e.until) return { from, until: from, starts: [], aggs: [] };
    return e;
  }

  /** Stores `e` as the most recently used entry, trimmed, and evicts beyond the bound. */
  private keep(key: string, e: CachedSeries, from: number): void {
    this.trim(e, from);
    this.entries.delete(key);
    this.entries.set(key, e);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
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

function visitRange(e: CachedSeries, from: number, until: number, visit: Visit): void {
  for (let i = firstAtOrAfter(e.starts, from); i < e.starts.length; i++) {
    const start = e.starts[i] as number;
    if (start >= until) break;
    visit(start, e.aggs[i] as Agg);
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
