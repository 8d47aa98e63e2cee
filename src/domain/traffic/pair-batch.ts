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

export const ifaceKey = (nodeId: number, iface: string) => `${nodeId}\u0000${iface}`;

/**
 * The rows one chunk of samples adds: each sample as a counter, and each pair (the interface's
 * last sample, this one) as 5-minute fact parts and Lite parts. A sample not after the
 * interface's last one is skipped. `cursors` (each interface's last sample) moves along;
 * samples of a node without an entry in `windows` (deleted) are skipped.
 */
export function pairBatch(
  samples: readonly QueuedSample[],
  cursors: Map<string, TrafficIfaceRow>,
  windows: ReadonlyMap<number, (at: number) => CycleWindow>,
): TrafficBatch {
  const counters: TrafficBatch['counters'] = [];
  const facts = new Map<string, TrafficFactRow & { nodeId: number; iface: string }>();
  const usage = new Map<string, TrafficUsageRow & { nodeId: number; iface: string }>();
  const touched = new Map<string, TrafficIfaceRow>();
  for (const s of samples) {
    const windowOf = windows.get(s.nodeId);
    if (!windowOf) continue;
    const k = ifaceKey(s.nodeId, s.iface);
    const prev = cursors.get(k);
    if (prev && s.at <= prev.lastAt) continue;
    counters.push(s);
    const next: CounterSample = { at: s.at, rx: s.rx, tx: s.tx };
    if (prev) {
      const p: CounterSample = { at: prev.lastAt, rx: prev.lastRx, tx: prev.lastTx };
      for (const part of pairParts(p, next)) {
        const fk = `${k}\u0000${part.bucket}`;
        const f = facts.get(fk);
        if (f) addFact(f, part);
        else facts.set(fk, { ...part, nodeId: s.nodeId, iface: s.iface });
      }
      for (const part of litePairParts(p, next, windowOf)) {
        const uk = `${k}\u0000${part.cycleStart}`;
        const merged = addLite(usage.get(uk), part);
        usage.set(uk, {
          ...merged,
          cycleStart: part.cycleStart,
          cycleEnd: part.cycleEnd,
          nodeId: s.nodeId,
          iface: s.iface,
        });
      }
    }
    const row: TrafficIfaceRow = {
      nodeId: s.nodeId,
      iface: s.iface,
      firstAt: prev?.firstAt ?? s.at,
      lastAt: s.at,
      lastRx: s.rx,
      lastTx: s.tx,
    };
    cursors.set(k, row);
    touched.set(k, row);
  }
  return {
    counters,
    ifaces: [...touched.values()],
    facts: [...facts.values()],
    usage: [...usage.values()],
  };
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
