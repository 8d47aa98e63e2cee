/**
 * Storage interfaces, one per area. Domain code sees only these; the SQLite (and later
 * PostgreSQL) implementations live under store/. Times are UTC epoch milliseconds.
 */

export interface SettingsRepo {
  /** Raw JSON text of a setting, or undefined when never stored. */
  get(key: string): Promise<string | undefined>;
  getMany(keys: readonly string[]): Promise<Map<string, string>>;
  /** Writes all entries in one transaction. */
  setMany(entries: ReadonlyArray<readonly [string, string]>, now: number): Promise<void>;
}

export interface NodesRepo {
  /** id and secret digest of every live (not deleted) node, for the secret index. */
  liveSecretHashes(): Promise<Array<{ id: number; secretHash: string }>>;
}

export interface Store {
  readonly engine: 'sqlite' | 'postgres';
  readonly settings: SettingsRepo;
  readonly nodes: NodesRepo;
  /** Liveness probe for readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

// ---- Node metrics: ingest, current projection, history (issue 4) ---------------------------

import type { DeviceKind } from '../protocol/history-metrics.js';

export type { DeviceKind };

/** One device's values in one report; `values` follow DEVICE_KINDS[kind]. */
export interface MetricsDeviceSample {
  kind: DeviceKind;
  name: string;
  ref: string;
  /** Mountpoint (usage) or device path (temp): another name a history query may use. */
  alt: string;
  values: number[];
}

/** The current projection of a node as stored (restored into hot state at start). */
export interface CurrentRow {
  nodeId: number;
  receivedAt: number;
  reportedAt: number;
  /** Receive time of the node's first current row: where its uptime observation starts. */
  firstReceivedAt: number;
  runtimeJson: string;
  smartJson: string | null;
  thermalJson: string | null;
  pressureJson: string | null;
}

/** One accepted metrics report, ready to store. */
export interface MetricsWrite {
  nodeId: number;
  receivedAt: number;
  /** Receipt + 5 s. A write not committed by then is not stored at all. */
  deadline: number;
  /** Values in HOST_METRICS order; null = not reported. */
  host: Array<number | null>;
  devices: MetricsDeviceSample[];
  current: Omit<CurrentRow, 'nodeId' | 'receivedAt' | 'firstReceivedAt'>;
  /** Client address; recorded on the node when this report becomes current. */
  ip: string | null;
}

/** current: stored and now the node's current projection; history: stored, but older than it. */
export type MetricsWriteOutcome = 'current' | 'history' | 'expired';

export interface MetricsWriter {
  /** Resolves once the report is durable (or known to be expired and not stored). */
  write(entry: MetricsWrite): Promise<MetricsWriteOutcome>;
  /** Waits for every write submitted so far. */
  drain(): Promise<void>;
}

export interface RollupRunResult {
  /** Newest 15-minute bucket end (exclusive) now materialised, if any. */
  watermark15m: number | undefined;
  watermark1h: number | undefined;
  buckets: number;
}

export interface RetentionRunResult {
  raw: number;
  rollup15m: number;
  rollup1h: number;
  devices: number;
}

/** Clock-driven maintenance, run on the writer so it never competes with ingest for the lock. */
export interface MetricsMaintenance {
  rollup(now: number): Promise<RollupRunResult>;
  retention(now: number, rawRetentionDays: number): Promise<RetentionRunResult>;
}

/** Live node fields the front view and static ingest need. */
export interface NodeFrontRow {
  id: number;
  name: string;
  tags: string;
  displayOrder: number;
  guestVisible: boolean;
  os: string;
  platform: string;
  platformVersion: string;
  kernelVersion: string;
  arch: string;
  staticJson: string | null;
}

export interface FrontRepo {
  /** Live (not deleted) nodes; all of them when `ids` is omitted. */
  liveNodes(ids?: readonly number[]): Promise<NodeFrontRow[]>;
  /** Stored current projections; all of them when `ids` is omitted. */
  currentRows(ids?: readonly number[]): Promise<CurrentRow[]>;
}

/** Columns a static report sets (reference §2.2). */
export interface NodeStaticUpdate {
  hostname: string;
  os: string;
  platform: string;
  platformVersion: string;
  kernelVersion: string;
  arch: string;
  agentVersion: string;
  intervalSec: number;
  staticJson: string;
  ip: string | null;
}

export interface NodeStaticRepo {
  /** Stored static JSON of a live node; undefined when the node does not exist. */
  staticJson(nodeId: number): Promise<string | null | undefined>;
  /**
   * Writes the static columns; the name becomes the hostname while it is still the creation
   * placeholder (empty or "Untitled"). False when the node does not exist.
   */
  saveStatic(nodeId: number, update: NodeStaticUpdate, now: number): Promise<boolean>;
}

export type HistorySource = 'raw' | '15m' | '1h';
export type HistoryAgg = 'avg' | 'max' | 'min' | 'last';

export interface HistoryQuery {
  nodeId: number;
  /** A metric of reference §4.5 (see domain/history/metric-catalog.ts). */
  metric: string;
  /** Device name, ref, mountpoint or path; required for disk metrics except disk.temp_c. */
  device?: string;
  source: HistorySource;
  /** Window [from, to) in epoch ms. */
  from: number;
  to: number;
  /** Bucket width in ms; buckets start at multiples of it. */
  stepMs: number;
  agg: HistoryAgg;
}

export interface HistoryPoint {
  /** Bucket start, epoch ms. */
  ts: number;
  value: number;
}

export interface NicSample {
  receivedAt: number;
  iface: string;
  bytesRecv: number;
  bytesSent: number;
  recvBps: number;
  sentBps: number;
}

export interface HistoryRepo {
  /** Points for buckets holding data, ascending. Rollup sources include the newest raw tail. */
  points(q: HistoryQuery): Promise<HistoryPoint[]>;
  /** Raw interface counters of one node in [from, to), ascending by receive time. */
  nicSamples(nodeId: number, from: number, to: number): Promise<NicSample[]>;
  /** Devices of one kind a node has reported, most recently seen first. */
  devices(
    nodeId: number,
    kind: DeviceKind,
  ): Promise<Array<{ name: string; ref: string; alt: string; lastSeenAt: number }>>;
}
