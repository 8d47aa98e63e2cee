import type { Clock } from '../../platform/clock.js';
import type { RateCountersRepo } from '../../store/ports.js';
import type { RateLimit } from './rate-limiter.js';

interface Window {
  start: number;
  /** Hits known here: this instance's, raised to the shared total each stored hit returns. */
  count: number;
  announced: boolean;
}

export interface SharedRateLimiterOptions {
  repo: RateCountersRepo;
  /** Which limiter the counters belong to (`login`, `node-auth`). */
  scope: string;
  clock: Clock;
  limit: number;
  windowMs: number;
  onError: (err: unknown) => void;
  /** Told when a key reaches its limit here, so other instances can be told at once. */
  onLimited?: (key: string, windowStart: number) => void;
}

/**
 * The limiter for several instances on one PostgreSQL: hits are counted per fixed window in a
 * shared table, so failures spread over instances add up. The checks stay synchronous (the
 * guards call them on every request): each hit is counted here at once and written in the
 * background, and the total the write returns (every instance's hits) replaces the local
 * count. A key that reaches its limit is announced (`onLimited`); instances that hear it
 * (`limitedElsewhere`) refuse the key until the window ends without a round trip.
 * Fixed windows, unlike the in-memory sliding one: across a window boundary a client may get
 * up to twice the limit, and writes in flight on two instances may each let one more through.
 */
export class SharedRateLimiter implements RateLimit {
  private readonly windows = new Map<string, Window>();
  private readonly pending = new Set<Promise<void>>();
  private prunedWindow = -1;

  constructor(private readonly o: SharedRateLimiterOptions) {}

  get active(): boolean {
    return this.windows.size > 0;
  }

  isLimited(key: string): boolean {
    const w = this.current(key);
    return w !== undefined && w.count >= this.o.limit;
  }

  retryAfterMs(key: string): number {
    const w = this.current(key);
    if (!w || w.count < this.o.limit) return 0;
    return Math.max(0, w.start + this.o.windowMs - this.o.clock.now());
  }

  hit(key: string): void {
    const start = this.windowStart();
    this.prune(start);
    let w = this.windows.get(key);
    if (!w || w.start !== start) this.windows.set(key, (w = { start, count: 0, announced: false }));
    w.count++;
    const entry = w;
    const p = this.o.repo
      .hit(this.o.scope, key, start)
      .then((total) => {
        if (total > entry.count) entry.count = total;
        if (entry.count >= this.o.limit && !entry.announced) {
          entry.announced = true;
          this.o.onLimited?.(key, start);
        }
      })
      .catch(this.o.onError)
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  /** Another instance saw the key reach its limit in the window starting at `windowStart`. */
  limitedElsewhere(key: string, windowStart: number): void {
    if (windowStart !== this.windowStart()) return;
    this.prune(windowStart);
    const w = this.windows.get(key);
    if (w && w.start === windowStart) {
      w.count = Math.max(w.count, this.o.limit);
      w.announced = true;
    } else {
      this.windows.set(key, { start: windowStart, count: this.o.limit, announced: true });
    }
  }

  /** Resolves once every hit so far is stored (tests, shutdown). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  private windowStart(): number {
    return Math.floor(this.o.clock.now() / this.o.windowMs) * this.o.windowMs;
  }

  private current(key: string): Window | undefined {
    const w = this.windows.get(key);
    return w && w.start === this.windowStart() ? w : undefined;
  }

  /** Once per window: forget past windows here, and delete stored ones no instance reads. */
  private prune(start: number): void {
    if (this.prunedWindow === start) return;
    this.prunedWindow = start;
    for (const [key, w] of this.windows) if (w.start !== start) this.windows.delete(key);
    const p = this.o.repo
      .prune(start - this.o.windowMs)
      .then(() => {})
      .catch(this.o.onError)
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }
}
