/** Traffic accounting ports (split from ports.ts, which re-exports them). */
// ---- Traffic accounting (issue 14) ----------------------------------------------------------

/** One interface's cumulative counters at one receive time. */
export interface TrafficCounterRow {
  nodeId: number;
  iface: string;
  at: number;
  rx: number;
  tx: number;
}

/** First and latest stored sample of one interface (the materialiser's pair cursor). */
export interface TrafficIfaceRow {
  nodeId: number;
  iface: string;
  firstAt: number;
  lastAt: number;
  lastRx: number;
  lastTx: number;
}

/** A 5-minute fact, or a part of one to add to it. */
export interface TrafficFactRow {
  bucket: number;
  inBytes: number;
  outBytes: number;
  validIn: number;
  validOut: number;
  validMs: number;
  gapCount: number;
  resetCount: number;
}

/** A Lite accumulator of one cycle, or a part of one to fold into it. */
export interface TrafficUsageRow {
  cycleStart: number;
  cycleEnd: number;
  inBytes: number;
  outBytes: number;
  sampleCount: number;
  gapCount: number;
  resetCount: number;
  peakIn: number;
  peakOut: number;
  peakTotal: number;
  coveredFrom: number;
  coveredUntil: number;
}

/** What one materialiser run writes, in one transaction. */
export interface TrafficBatch {
  counters: TrafficCounterRow[];
  ifaces: TrafficIfaceRow[];
  /** Added to the stored facts. */
  facts: Array<TrafficFactRow & { nodeId: number; iface: string }>;
  /** Folded into the stored accumulators. */
  usage: Array<TrafficUsageRow & { nodeId: number; iface: string }>;
}

export interface TrafficSnapshotRow {
  iface: string;
  cycleStart: number;
  cycleEnd: number;
  statsJson: string;
  sealed: boolean;
}

export interface TrafficRepo {
  /** Every interface's cursor row. */
  ifaceStates(): Promise<TrafficIfaceRow[]>;
  /** Interfaces of one node. */
  ifaces(nodeId: number): Promise<TrafficIfaceRow[]>;
  apply(batch: TrafficBatch): Promise<void>;
  /** Facts of one interface with bucket in [from, to), ascending. */
  facts(nodeId: number, iface: string, from: number, to: number): Promise<TrafficFactRow[]>;
  usage(nodeId: number, iface: string, cycleStart: number): Promise<TrafficUsageRow | undefined>;
  usageSince(nodeId: number, iface: string, from: number): Promise<TrafficUsageRow[]>;
  /** Stored counters of one node per interface in [from, to), plus the sample just before
   * `from` and the one at or after `to`, so the pairs crossing the edges are whole. */
  countersAround(
    nodeId: number,
    from: number,
    to: number,
  ): Promise<Map<string, TrafficCounterRow[]>>;
  /** Counters of one node in [from, to) in time order (Lite replay). */
  counters(nodeId: number, from: number, to: number): Promise<TrafficCounterRow[]>;
  /** Oldest and newest stored counter time of a node. */
  counterRange(nodeId: number): Promise<{ first: number; last: number } | undefined>;
  /** Replaces one node's facts with bucket in [from, to) and drops snapshots of cycles
   * overlapping it, in one transaction. */
  replaceFacts(
    nodeId: number,
    from: number,
    to: number,
    facts: ReadonlyArray<TrafficFactRow & { iface: string }>,
  ): Promise<void>;
  /** Drops a node's Lite accumulators of cycles ending after `from`. */
  deleteUsageFrom(nodeId: number, from: number): Promise<void>;
  snapshots(nodeId: number, iface: string): Promise<TrafficSnapshotRow[]>;
  putSnapshot(nodeId: number, row: TrafficSnapshotRow): Promise<void>;
  /** Deletes counters and facts older than the cut-off, at most `limit` rows per table
   * (accumulators and snapshots are small and outlive them). Returns rows deleted. */
  prune(before: number, limit: number): Promise<number>;
}

/** Which raw figure a recorded bill refers to. */
export type AdjustmentDirection = 'in' | 'out' | 'total';

/** A provider's billed bytes for one node, interface and billing cycle (calibration). */
export interface TrafficAdjustmentRow {
  id: number;
  nodeId: number;
  iface: string;
  cycleStart: number;
  cycleEnd: number;
  direction: AdjustmentDirection;
  billedBytes: number;
  /** Dash's raw bytes in `direction` for the cycle when the bill was recorded. */
  rawBytes: number;
  note: string;
  createdAt: number;
  /** Set when revoked or superseded; the row itself is never deleted. */
  revokedAt: number | null;
  /** The newer record of the same cycle that replaced this one. */
  supersededBy: number | null;
}

export type NewTrafficAdjustment = Omit<TrafficAdjustmentRow, 'id' | 'revokedAt' | 'supersededBy'>;

export interface TrafficAdjustmentsRepo {
  /** Every record of a node (optionally one interface), newest first, revoked ones included. */
  list(nodeId: number, iface?: string): Promise<TrafficAdjustmentRow[]>;
  /** Records in force for one interface, newest cycle first. */
  active(nodeId: number, iface: string): Promise<TrafficAdjustmentRow[]>;
  get(nodeId: number, id: number): Promise<TrafficAdjustmentRow | undefined>;
  /** Inserts a record; the one in force for the same cycle (if any) is superseded by it, in
   * the same transaction. */
  create(row: NewTrafficAdjustment): Promise<TrafficAdjustmentRow>;
  /** Marks a record in force as revoked; undefined when it is not in force. */
  revoke(nodeId: number, id: number, at: number): Promise<TrafficAdjustmentRow | undefined>;
}
