import type {
  TrafficCounterRow,
  TrafficFactRow,
  TrafficIfaceRow,
  TrafficUsageRow,
} from '../ports.js';

/** Traffic rows as both engines store them (snake_case columns) and their port shapes. */
export type IfaceDb = {
  node_id: number;
  iface: string;
  first_at: number;
  last_at: number;
  last_rx: number;
  last_tx: number;
};
export type FactDb = {
  bucket: number;
  in_bytes: number;
  out_bytes: number;
  valid_in: number;
  valid_out: number;
  valid_ms: number;
  gap_count: number;
  reset_count: number;
};
export type UsageDb = {
  cycle_start: number;
  cycle_end: number;
  in_bytes: number;
  out_bytes: number;
  sample_count: number;
  gap_count: number;
  reset_count: number;
  peak_in: number;
  peak_out: number;
  peak_total: number;
  covered_from: number;
  covered_until: number;
};
export type CounterDb = {
  node_id: number;
  iface: string;
  received_at: number;
  rx: number;
  tx: number;
};

export const toIface = (r: IfaceDb): TrafficIfaceRow => ({
  nodeId: r.node_id,
  iface: r.iface,
  firstAt: r.first_at,
  lastAt: r.last_at,
  lastRx: r.last_rx,
  lastTx: r.last_tx,
});
export const toFact = (r: FactDb): TrafficFactRow => ({
  bucket: r.bucket,
  inBytes: r.in_bytes,
  outBytes: r.out_bytes,
  validIn: r.valid_in,
  validOut: r.valid_out,
  validMs: r.valid_ms,
  gapCount: r.gap_count,
  resetCount: r.reset_count,
});
export const toUsage = (r: UsageDb): TrafficUsageRow => ({
  cycleStart: r.cycle_start,
  cycleEnd: r.cycle_end,
  inBytes: r.in_bytes,
  outBytes: r.out_bytes,
  sampleCount: r.sample_count,
  gapCount: r.gap_count,
  resetCount: r.reset_count,
  peakIn: r.peak_in,
  peakOut: r.peak_out,
  peakTotal: r.peak_total,
  coveredFrom: r.covered_from,
  coveredUntil: r.covered_until,
});
export const toCounter = (r: CounterDb): TrafficCounterRow => ({
  nodeId: r.node_id,
  iface: r.iface,
  at: r.received_at,
  rx: r.rx,
  tx: r.tx,
});
