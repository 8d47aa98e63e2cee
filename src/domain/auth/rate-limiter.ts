import type { Clock } from '../../platform/clock.js';

/** What the guards and routes use of a limiter (in-memory here, shared across instances too). */
export interface RateLimit {
  /** False while no key has any recorded hit: callers can skip working out a key. */
  readonly active: boolean;
  isLimited(key: string): boolean;
  hit(key: string): void;
  retryAfterMs(key: string): number;
}

/**
 * Sliding-window limiter: at most `limit` hits per `windowMs` per key. Memory is bounded by
 * pruning keys whose hits all fell out of the window.
 */
export class RateLimiter implements RateLimit {
  private readonly hits = new Map<string, number[]>();
  private lastPrune = 0;

  constructor(
    private readonly clock: Clock,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Records a hit; false when the key is over its limit (the hit is not counted then). */
  tryHit(key: string): boolean {
    const now = this.clock.now();
    this.prune(now);
    const since = now - this.windowMs;
    const list = (this.hits.get(key) ?? []).filter((t) => t > since);
    if (list.length >= this.limit) {
      this.hits.set(key, list);
      return false;
    }
    list.push(now);
    this.hits.set(key, list);
    return true;
  }

  /** Whether the key is at its limit now (recording nothing). */
  isLimited(key: string): boolean {
    const list = this.hits.get(key);
    if (!list || list.length < this.limit) return false;
    const since = this.clock.now() - this.windowMs;
    return list.filter((t) => t > since).length >= this.limit;
  }

  /** Records a hit (a failure, for limiters that count only those). */
  hit(key: string): void {
    const now = this.clock.now();
    this.prune(now);
    const since = now - this.windowMs;
    const list = (this.hits.get(key) ?? []).filter((t) => t > since);
    // Never more than the limit is needed to tell; a flood keeps memory per key bounded.
    if (list.length >= this.limit) list.shift();
    list.push(now);
    this.hits.set(key, list);
  }

  /** False while no key has any recorded hit: callers can skip working out a key. */
  get active(): boolean {
    return this.hits.size > 0;
  }

  /** Milliseconds until the key may hit again (0 when it may now). */
  retryAfterMs(key: string): number {
    const list = this.hits.get(key);
    if (!list || list.length < this.limit) return 0;
    return Math.max(0, (list[0] ?? 0) + this.windowMs - this.clock.now());
  }

  private prune(now: number): void {
    if (now - this.lastPrune < this.windowMs) return;
    this.lastPrune = now;
    for (const [key, list] of this.hits) {
      if ((list.at(-1) ?? 0) <= now - this.windowMs) this.hits.delete(key);
    }
  }
}
