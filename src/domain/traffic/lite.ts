import { GAP_MS, type CounterSample } from './facts.js';
import type { CycleWindow } from './cycle-bounds.js';
import type { LiteUsage } from './stats.js';

/** One pair's contribution to the Lite accumulator of one cycle. */
export interface LitePart extends LiteUsage {
  cycleStart: number;
  cycleEnd: number;
}

/**
 * Lite-mode accounting of one counter pair (reference §6.7): bytes split linearly across
 * cycle boundaries; a pair longer than 5 minutes adds a gap to every cycle it touches instead
 * of a sample; a counter that went down adds a reset to the later sample's cycle; otherwise one
 * sample and the pair's rate as a peak candidate. Unlike the reference, an idle pair (no byte
 * moved) still counts as observed time, so an idle interface keeps its coverage.
 */
export function litePairParts(
  prev: CounterSample,
  next: CounterSample,
  cycleOf: (at: number) => CycleWindow,
): LitePart[] {
  const dur = next.at - prev.at;
  if (dur <= 0) return [];
  const blank = (w: CycleWindow, from: number, until: number): LitePart => ({
    cycleStart: w.start,
    cycleEnd: w.end,
    inBytes: 0,
    outBytes: 0,
    sampleCount: 0,
    gapCount: 0,
    resetCount: 0,
    peakIn: 0,
    peakOut: 0,
    peakTotal: 0,
    coveredFrom: from,
    coveredUntil: until,
  });
  if (next.rx < prev.rx || next.tx < prev.tx) {
    const w = cycleOf(next.at);
    return [{ ...blank(w, next.at, next.at), resetCount: 1 }];
  }
  const din = next.rx - prev.rx;
  const dout = next.tx - prev.tx;
  const gap = dur > GAP_MS;
  const parts: LitePart[] = [];
  let t = prev.at;
  while (t < next.at) {
    const w = cycleOf(t);
    const e = Math.min(w.end, next.at);
    const cut = (d: number) =>
      Math.round((d * (e - prev.at)) / dur) - Math.round((d * (t - prev.at)) / dur);
    const part = blank(w, t, e);
    part.inBytes = cut(din);
    part.outBytes = cut(dout);
    if (gap) part.gapCount = 1;
    else if (e === next.at) {
      part.sampleCount = 1;
      const sec = dur / 1000;
      part.peakIn = din / sec;
      part.peakOut = dout / sec;
      part.peakTotal = (din + dout) / sec;
    }
    parts.push(part);
    t = e;
  }
  return parts;
}

/** Folds a part into an accumulator (or starts one). */
export function addLite(into: LiteUsage | undefined, part: LiteUsage): LiteUsage {
  if (!into) return { ...part };
  return {
    inBytes: into.inBytes + part.inBytes,
    outBytes: into.outBytes + part.outBytes,
    sampleCount: into.sampleCount + part.sampleCount,
    gapCount: into.gapCount + part.gapCount,
    resetCount: into.resetCount + part.resetCount,
    peakIn: Math.max(into.peakIn, part.peakIn),
    peakOut: Math.max(into.peakOut, part.peakOut),
    peakTotal: Math.max(into.peakTotal, part.peakTotal),
    coveredFrom: Math.min(into.coveredFrom, part.coveredFrom),
    coveredUntil: Math.max(into.coveredUntil, part.coveredUntil),
  };
}
