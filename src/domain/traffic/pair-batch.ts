import type {
  TrafficBatch,
  TrafficFactRow,
  TrafficIfaceRow,
  TrafficUsageRow,
} from '../../store/ports.js';
import type { CycleWindow } from './cycle-bounds.js';
import { addFact, pairParts, type BucketFact, type CounterSample } from './facts.js';
import { addLite, litePairParts } from './lite.js';
import type { LiteUsage } from './stats.js';
import type { QueuedSample } from './counter-queue.js';
import type { IfaceCursors } from './iface-cursors.js';

/** Folds a Lite part into an accumulator of the same cycle, in place. */
function foldLite(into: LiteUsage, part: LiteUsage): void {
  into.inBytes += part.inBytes;
  into.outBytes += part.outBytes;
  into.sampleCount += part.sampleCount;
  into.gapCount += part.gapCount;
  into.resetCount += part.resetCount;
  into.peakIn = Math.max(into.peakIn, part.peakIn);
  into.peakOut = Math.max(into.peakOut, part.peakOut);
  into.peakTotal = Math.max(into.peakTotal, part.peakTotal);
  into.coveredFrom = Math.min(into.coveredFrom, part.coveredFrom);
  into.coveredUntil = Math.max(into.coveredUntil, part.coveredUntil);
}

/** Samples of one node (consecutive in a chunk) by interface, each in arrival order. */
function byIface(samples: readonly QueuedSample[], from: number, to: number) {
  const out = new Map<string, QueuedSample[]>();
  for (let i = from; i < to; i++) {
    const s = samples[i] as QueuedSample;
    const list = out.get(s.iface);
    if (list) list.push(s);
    else out.set(s.iface, [s]);
  }
  return out;
}

/**
 * The rows one chunk of samples (grouped by node) adds: each sample as a counter, and each
 * pair (the interface's last sample, this one) as 5-minute fact parts and Lite parts. A sample
 * not after the interface's last one is skipped. `cursors` (each interface's last sample) moves
 * along; samples of a node without an entry in `windows` (deleted) are skipped. One interface
 * at a time, so its buckets and cycles are keyed by number (half a million samples a minute).
 */
export function pairBatch(
  samples: readonly QueuedSample[],
  cursors: IfaceCursors,
  windows: ReadonlyMap<number, (at: number) => CycleWindow>,
): TrafficBatch {
  const batch: TrafficBatch = { counters: [], ifaces: [], facts: [], usage: [] };
  for (let from = 0; from < samples.length;) {
    const nodeId = (samples[from] as QueuedSample).nodeId;
    let to = from + 1;
    while (to < samples.length && (samples[to] as QueuedSample).nodeId === nodeId) to++;
    const windowOf = windows.get(nodeId);
    if (windowOf) {
      for (const [iface, list] of byIface(samples, from, to)) {
        pairIface(batch, cursors, nodeId, iface, list, windowOf);
      }
    }
    from = to;
  }
  return batch;
}

function pairIface(
  batch: TrafficBatch,
  cursors: IfaceCursors,
  nodeId: number,
  iface: string,
  list: readonly QueuedSample[],
  windowOf: (at: number) => CycleWindow,
): void {
  const first = cursors.get(nodeId, iface);
  let prev: CounterSample | undefined = first && {
    at: first.lastAt,
    rx: first.lastRx,
    tx: first.lastTx,
  };
  const facts = new Map<number, TrafficFactRow & { nodeId: number; iface: string }>();
  const usage = new Map<number, TrafficUsageRow & { nodeId: number; iface: string }>();
  for (const s of list) {
    if (prev && s.at <= prev.at) continue;
    batch.counters.push(s);
    const next: CounterSample = { at: s.at, rx: s.rx, tx: s.tx };
    if (prev) {
      for (const part of pairParts(prev, next)) {
        const f = facts.get(part.bucket);
        if (f) addFact(f, part);
        else facts.set(part.bucket, Object.assign(part, { nodeId, iface }));
      }
      for (const part of litePairParts(prev, next, windowOf)) {
        const u = usage.get(part.cycleStart);
        if (u) foldLite(u, part);
        else usage.set(part.cycleStart, Object.assign(part, { nodeId, iface }));
      }
    }
    prev = next;
  }
  if (!prev || (first && prev.at === first.lastAt)) return; // nothing new
  const row: TrafficIfaceRow = {
    nodeId,
    iface,
    firstAt: first?.firstAt ?? (list[0] as QueuedSample).at,
    lastAt: prev.at,
    lastRx: prev.rx,
    lastTx: prev.tx,
  };
  cursors.set(row);
  batch.ifaces.push(row);
  for (const f of facts.values()) batch.facts.push(f);
  for (const u of usage.values()) batch.usage.push(u);
}

/** The pairs a flush would form from `prev` and the queued `samples` of one interface. */
function pendingPairs(
  prev: CounterSample | undefined,
  samples: readonly CounterSample[],
  each: (p: CounterSample, n: CounterSample) => void,
): void {
  let last = prev;
  for (const s of samples) {
    if (last && s.at <= last.at) continue;
    if (last) each(last, s);
    last = s;
  }
}

/**
 * Stored facts of [from, to) with the parts of the pairs not stored yet added, as the flush
 * will add them (a read sees what the store will hold).
 */
export function withPendingFacts(
  stored: readonly TrafficFactRow[],
  prev: CounterSample | undefined,
  samples: readonly CounterSample[],
  from: number,
  to: number,
): BucketFact[] {
  if (samples.length === 0) return stored as BucketFact[];
  const byBucket = new Map<number, BucketFact>(stored.map((f) => [f.bucket, { ...f }]));
  pendingPairs(prev, samples, (p, n) => {
    for (const part of pairParts(p, n)) {
      if (part.bucket < from || part.bucket >= to) continue;
      const f = byBucket.get(part.bucket);
      if (f) addFact(f, part);
      else byBucket.set(part.bucket, part);
    }
  });
  return [...byBucket.values()].sort((a, b) => a.bucket - b.bucket);
}

/** A cycle's stored Lite accumulator with the parts of the pairs not stored yet folded in. */
export function withPendingUsage(
  stored: TrafficUsageRow | undefined,
  prev: CounterSample | undefined,
  samples: readonly CounterSample[],
  windowOf: (at: number) => CycleWindow,
  cycleStart: number,
): TrafficUsageRow | undefined {
  let out: TrafficUsageRow | undefined = stored;
  pendingPairs(prev, samples, (p, n) => {
    for (const part of litePairParts(p, n, windowOf)) {
      if (part.cycleStart !== cycleStart) continue;
      const merged: LiteUsage = addLite(out, part);
      out = { ...merged, cycleStart: part.cycleStart, cycleEnd: part.cycleEnd };
    }
  });
  return out;
}
