/**
 * 5-minute traffic facts from cumulative interface counters (reference §6.6). Each pair of
 * consecutive samples of one interface is turned into per-bucket parts; buckets sum the parts
 * of every pair that touches them, so facts can be built incrementally (one pair at a time)
 * or rebuilt for a window (every pair overlapping it, clipped) with the same result.
 */

export const BUCKET_MS = 300_000;
/** A pair longer than one bucket is a gap: its bytes count, its time is not valid for rates. */
export const GAP_MS = 300_000;
/** A bucket needs this much valid covered time to carry a rate. */
export const VALID_BUCKET_MS = 270_000;

export interface CounterSample {
  /** Server receive time, epoch ms. */
  at: number;
  /** Cumulative bytes received (in) and sent (out). */
  rx: number;
  tx: number;
}

/** What one bucket holds (also one pair's share of a bucket). */
export interface BucketFact {
  bucket: number;
  inBytes: number;
  outBytes: number;
  /** Bytes and milliseconds of non-gap pairs: the basis of the bucket's rate. */
  validIn: number;
  validOut: number;
  validMs: number;
  gapCount: number;
  resetCount: number;
}

export const floorBucket = (ms: number) => Math.floor(ms / BUCKET_MS) * BUCKET_MS;

export function emptyFact(bucket: number): BucketFact {
  return {
    bucket,
    inBytes: 0,
    outBytes: 0,
    validIn: 0,
    validOut: 0,
    validMs: 0,
    gapCount: 0,
    resetCount: 0,
  };
}

/** Share of `delta` for the time slice [a, b) of a pair spanning [t0, t0 + dur): sums exactly. */
function share(delta: number, t0: number, dur: number, a: number, b: number): number {
  return Math.round((delta * (b - t0)) / dur) - Math.round((delta * (a - t0)) / dur);
}

/**
 * The bucket parts of one pair. A counter that went down (reboot, wrap, agent reset) is a
 * reset: no bytes, one reset on the bucket of the later sample, which then carries no rate.
 */
export function pairParts(prev: CounterSample, next: CounterSample): BucketFact[] {
  const dur = next.at - prev.at;
  if (dur <= 0) return [];
  if (next.rx < prev.rx || next.tx < prev.tx) {
    return [{ ...emptyFact(floorBucket(next.at)), resetCount: 1 }];
  }
  const din = next.rx - prev.rx;
  const dout = next.tx - prev.tx;
  const gap = dur > GAP_MS;
  const parts: BucketFact[] = [];
  for (let b = floorBucket(prev.at); b < next.at; b += BUCKET_MS) {
    const a = Math.max(b, prev.at);
    const e = Math.min(b + BUCKET_MS, next.at);
    const inBytes = share(din, prev.at, dur, a, e);
    const outBytes = share(dout, prev.at, dur, a, e);
    parts.push({
      bucket: b,
      inBytes,
      outBytes,
      validIn: gap ? 0 : inBytes,
      validOut: gap ? 0 : outBytes,
      validMs: gap ? 0 : e - a,
      gapCount: gap && b === floorBucket(prev.at) ? 1 : 0,
      resetCount: 0,
    });
  }
  return parts;
}

/** Adds `part` into `into` (same bucket). */
export function addFact(into: BucketFact, part: BucketFact): void {
  into.inBytes += part.inBytes;
  into.outBytes += part.outBytes;
  into.validIn += part.validIn;
  into.validOut += part.validOut;
  into.validMs += part.validMs;
  into.gapCount += part.gapCount;
  into.resetCount += part.resetCount;
}

/**
 * Facts of the buckets in [from, to) from samples of one interface in time order. The samples
 * must include the last one before `from` and the first one at or after `to`, so the pairs
 * crossing the window edges are complete.
 */
export function factsForWindow(
  samples: readonly CounterSample[],
  from: number,
  to: number,
): BucketFact[] {
  const byBucket = new Map<number, BucketFact>();
  for (let i = 1; i < samples.length; i++) {
    for (const part of pairParts(samples[i - 1] as CounterSample, samples[i] as CounterSample)) {
      if (part.bucket < from || part.bucket >= to) continue;
      const f = byBucket.get(part.bucket);
      if (f) addFact(f, part);
      else byBucket.set(part.bucket, { ...part });
    }
  }
  return [...byBucket.values()].sort((x, y) => x.bucket - y.bucket);
}

/** Rates of a valid bucket (bytes/s), or undefined when it carries none. */
export function bucketRates(f: BucketFact): { in: number; out: number } | undefined {
  if (f.resetCount > 0 || f.validMs < VALID_BUCKET_MS) return undefined;
  const sec = f.validMs / 1000;
  return { in: f.validIn / sec, out: f.validOut / sec };
}
