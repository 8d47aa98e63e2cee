/**
 * Storage interfaces, one per area. Domain code sees only these; the SQLite (and later
 * PostgreSQL) implementations live under store/. Times are UTC epoch milliseconds.
 */
import type { AlertsRepo } from './ports-alerts.js';
import type { ChannelsRepo } from './channel-ports.js';
import type { TrafficAdjustmentsRepo, TrafficRepo } from './ports-traffic.js';

export interface SettingsRepo {
  /** Raw JSON text of a setting, or undefined when never stored. */
  get(key: string): Promise<string | undefined>;
  getMany(keys: readonly string[]): Promise<Map<string, string>>;
  /** Writes all entries in one transaction. */
  setMany(entries: ReadonlyArray<readonly [string, string]>, now: number): Promise<void>;
  /**
   * Stores `value` unless the key already holds one (atomically: of instances claiming at once,
   * one wins) and returns the value stored now.
   */
  claim(key: string, value: string, now: number): Promise<string>;
}

/** A live node as stored; tags are the raw stored JSON text. */
export interface NodeRow {
  id: number;
  name: string;
  secretEnc: string;
  hostname: string;
  ip: string | null;
  isGuestVisible: boolean;
  trafficP95Enabled: boolean;
  trafficCycleMode: string;
  trafficBillingStartDay: number;
  trafficBillingAnchorDate: string;
  trafficBillingTimezone: string;
  trafficDirectionMode: string;
  displayOrder: number;
  tagsJson: string;
  agentVersion: string;
  os: string;
  /** Distribution id from the static report (debian, alpine…); '' until one arrived. */
  platform: string;
  arch: string;
  groupIds: number[];
}

export interface NewNode {
  name: string;
  secretHash: string;
  secretEnc: string;
}

/** Column changes of a node patch; absent keys stay as they are. */
export interface NodeChanges {
  name?: string;
  isGuestVisible?: boolean;
  trafficP95Enabled?: boolean;
  trafficCycleMode?: string;
  trafficBillingStartDay?: number;
  trafficBillingAnchorDate?: string;
  trafficBillingTimezone?: string;
  trafficDirectionMode?: string;
  displayOrder?: number;
  tagsJson?: string;
  secret?: { hash: string; enc: string };
  /** Replaces every membership; duplicates already removed. */
  groupIds?: number[];
}

export type NodeUpdateResult = 'ok' | 'not_found' | 'duplicate_secret' | 'unknown_group';

export type NodeCreateResult = { ok: true; id: number } | { ok: false; reason: 'duplicate_secret' };

export interface NodesRepo {
  /** id and secret digest of every live (not deleted) node, for the secret index. */
  liveSecretHashes(): Promise<Array<{ id: number; secretHash: string }>>;
  /** Live nodes, highest display_order first, then by id. */
  list(): Promise<NodeRow[]>;
  /** A live node, or undefined when absent or deleted. */
  get(id: number): Promise<NodeRow | undefined>;
  /**
   * Inserts a node after every live one in display order and joins it to the lowest-id live
   * group named `default`, in one transaction.
   */
  create(node: NewNode, now: number): Promise<NodeCreateResult>;
  /** Applies every change or none (one transaction). */
  update(id: number, changes: NodeChanges, now: number): Promise<NodeUpdateResult>;
  /** Sets traffic_p95_enabled on all ids, or on none when any is absent or deleted. */
  setTrafficP95(ids: readonly number[], enabled: boolean, now: number): Promise<boolean>;
  /**
   * Gives the first id the highest order (N) down to 1 for the last. `missing` when an id is not
   * a live node, `incomplete` when a live node is not listed; nothing changes then.
   */
  setDisplayOrder(ids: readonly number[], now: number): Promise<'ok' | 'missing' | 'incomplete'>;
  /** Soft delete: frees the secret and drops memberships. False when absent or deleted. */
  softDelete(id: number, now: number): Promise<boolean>;
}

export interface GroupRow {
  id: number;
  name: string;
  remark: string;
  /** Live member nodes. */
  nodeCount: number;
}

export interface GroupsRepo {
  /** Live groups ordered by id. */
  list(): Promise<GroupRow[]>;
  create(name: string, remark: string, now: number): Promise<number>;
  /** False when the group is absent or deleted. */
  update(id: number, changes: { name?: string; remark?: string }, now: number): Promise<boolean>;
  /** Soft delete and drop memberships; false when absent or deleted. */
  softDelete(id: number, now: number): Promise<boolean>;
  /**
   * Makes sure a live group named `name` exists: re-activates a deleted one or creates it.
   * Returns its id.
   */
  ensureNamed(name: string, now: number): Promise<number>;
  /** Live groups (by id) with their live member nodes (by id) and each node's guest visibility. */
  memberships(): Promise<
    Array<{ id: number; name: string; nodes: Array<{ id: number; guestVisible: boolean }> }>
  >;
}

export interface SessionRecord {
  id: string;
  /** SHA-256 of the current refresh token. */
  refreshHash: string;
  /** SHA-256 of the current CSRF token. */
  csrfHash: string;
  sessionOnly: boolean;
  userVersion: number;
  createdAt: number;
  expiresAt: number;
}

export interface SessionsRepo {
  insert(session: SessionRecord): Promise<void>;
  /** Sessions not yet expired at `now`. */
  live(now: number): Promise<SessionRecord[]>;
  /** Replaces the refresh and CSRF digests and the expiry (refresh-token rotation). */
  rotate(id: string, refreshHash: string, csrfHash: string, expiresAt: number): Promise<void>;
  delete(id: string): Promise<void>;
  deleteAll(): Promise<void>;
  deleteExpired(now: number): Promise<number>;
  /** One stored session, unexpired at `now` (another instance may have created it). */
  get(id: string, now: number): Promise<SessionRecord | undefined>;
}

export interface UptimeMinuteRow {
  nodeId: number;
  minute: number;
  onlineMs: number;
  observedMs: number;
  reports: number;
  /** Local-hour bucket (instant the local hour began) and local date of the minute. */
  hourStart: number;
  day: string;
}

export interface UptimeSums {
  onlineMs: number;
  observedMs: number;
}

export interface UptimeNode {
  id: number;
  guestVisible: boolean;
  /** Report interval from the node's static report (default 3 s). */
  intervalSec: number;
}

export interface UptimeRepo {
  /**
   * Writes finalised minutes and adds them to their hour and day sums, in one transaction.
   * A minute already stored is left alone (and not added twice).
   */
  saveMinutes(rows: readonly UptimeMinuteRow[]): Promise<void>;
  /** Latest finalised minute, to resume after a restart. */
  lastMinute(): Promise<number | undefined>;
  /** When each node's first report became its current projection (its observation start). */
  firstReports(): Promise<Map<number, number>>;
  /** Receive times of stored reports since `since`, to resume finalising after a restart. */
  recentReceipts(since: number): Promise<Array<{ nodeId: number; receivedAt: number }>>;
  /** Non-deleted nodes, ordered by id. */
  nodes(): Promise<UptimeNode[]>;
  node(id: number): Promise<UptimeNode | undefined>;
  /** Day sums for days in [fromDay, toDay] (YYYY-MM-DD), keyed by node then day. */
  days(
    nodeIds: readonly number[],
    fromDay: string,
    toDay: string,
  ): Promise<Map<number, Map<string, UptimeSums>>>;
  /** Hour sums with hour_start in [from, to). */
  hours(
    nodeId: number,
    from: number,
    to: number,
  ): Promise<Array<UptimeSums & { hourStart: number }>>;
  /**
   * Stored reports of one node received in [from, to), per bucket of `stepMs` counted from
   * `from` (keys are bucket starts; empty buckets are absent). Finalised minutes give their
   * report count; minutes the uptime job never finalised are counted from raw history.
   */
  reportCounts(
    nodeId: number,
    from: number,
    to: number,
    stepMs: number,
  ): Promise<Map<number, number>>;
  /** Deletes rows older than the cut-offs, at most `limit` rows per table; returns rows deleted. */
  prune(
    minuteBefore: number,
    hourBefore: number,
    dayBefore: string,
    limit: number,
  ): Promise<number>;
}

/** Every port a running Dash uses, whichever engine is behind it (the composition root's view). */
export interface Store {
  readonly engine: 'sqlite' | 'postgres';
  readonly settings: SettingsRepo;
  readonly nodes: NodesRepo;
  readonly groups: GroupsRepo;
  readonly sessions: SessionsRepo;
  readonly uptime: UptimeRepo;
  readonly traffic: TrafficRepo;
  readonly trafficAdjustments: TrafficAdjustmentsRepo;
  readonly alerts: AlertsRepo;
  readonly channels: ChannelsRepo;
  /** Node rows and stored current projections the front view loads from. */
  readonly front: FrontRepo;
  /** Static reports of nodes (POST /api/node/static). */
  readonly nodeStatic: NodeStaticRepo;
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
  current: Omit<CurrentRow, 'nodeId' | 'receivedAt' | 'firstReceivedAt' | 'runtimeJson'> & {
    /** The runtime view; serialised only when the stored projection is due for a rewrite. */
    runtime: unknown;
    /**
     * The runtime view already serialised (prepared on another thread, for an engine that
     * rewrites the projection with every report): used instead of serialising `runtime`.
     */
    runtimeJson?: string;
    /**
     * The four JSON documents (runtime, SMART, thermal, pressure) already encoded as UTF-8 in
     * the PostgreSQL engine's document format (`store/postgres/array-params.ts`), as a
     * preparation thread sends them: when set, the engine reads them instead of the strings
     * (left out: null), and the HTTP thread never holds those documents as strings.
     */
    docs?: Uint8Array;
  };
  /** Client address; recorded on the node when this report becomes current. */
  ip: string | null;
}

/**
 * current: stored and now the node's current projection; history: stored, but older than it;
 * device_limit: not stored, the report would take the node past its distinct-device limit.
 */
export type MetricsWriteOutcome = 'current' | 'history' | 'expired' | 'device_limit';

/** Stores a batch of metrics reports in one durable transaction; outcomes in input order. */
export interface BatchCommitter {
  commitBatch(entries: readonly MetricsWrite[]): MetricsWriteOutcome[];
  /** Distinct devices one node may have (outcome device_limit beyond it). */
  readonly maxDevicesPerNode?: number;
}

/** The same for an engine whose commit is awaited (PostgreSQL): outcomes after COMMIT. */
export interface AsyncBatchCommitter {
  commitBatch(entries: readonly MetricsWrite[]): Promise<MetricsWriteOutcome[]>;
  readonly maxDevicesPerNode?: number;
}

export interface RollupRunResult {
  /** Newest 15-minute bucket end (exclusive) now materialised, if any. */
  watermark15m: number | undefined;
  watermark1h: number | undefined;
  buckets: number;
  /** Raw-history blocks sealed by this run and the points they hold (history-blocks). */
  sealedBlocks?: number;
  sealedPoints?: number;
  /** Small blocks of closed hours merged into fewer blocks (block-compaction). */
  compactedBlocks?: number;
}

export interface RetentionRunResult {
  /** Raw points deleted: open raw rows plus the points of deleted blocks. */
  raw: number;
  /** Sealed raw-history blocks deleted (whole blocks whose newest point is past the cutoff). */
  blocks?: number;
  /** Set when the size budget moved the raw cutoff later than the configured retention. */
  budgetCutoff?: number;
  rollup15m: number;
  rollup1h: number;
  devices: number;
}

/** What the database holds, for the admin storage panel (GET /api/admin/system/storage). */
export interface HistoryStorageFacts {
  /** Database file size in pages (free pages included) and the part in use. */
  databaseBytes: number;
  usedBytes: number;
  /** Sealed raw history: block bytes, points, oldest point. */
  rawBytes: number;
  rawPoints: number;
  rawOldestAt: number | undefined;
  /** Reports not yet sealed (the open block) and the bytes they take. */
  openRows: number;
  openBytes: number;
  /** Bytes of raw history sealed per UTC day, oldest first (day = epoch ms of its start). */
  days: Array<{ day: number; bytes: number; points: number }>;
  /** The raw cutoff the size budget imposed at the last retention run, and whether over. */
  budgetCutoff: number | undefined;
  budgetOver: boolean;
}

export interface HistoryStorageRepo {
  facts(): Promise<HistoryStorageFacts>;
}

/** Clock-driven maintenance, run on the writer so it never competes with ingest for the lock. */
export interface MetricsMaintenance {
  /** Seals closed windows of raw history into blocks (every `sealMs`), then rolls up. */
  rollup(now: number, sealMs?: number): Promise<RollupRunResult>;
  /** `maxBytes`: the optional history size budget (history_max_bytes), met by shortening raw. */
  retention(now: number, rawRetentionDays: number, maxBytes?: number): Promise<RetentionRunResult>;
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
  /** A metric of reference §4.5 (see protocol/history-metrics.ts). */
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

/**
 * History partitions (PostgreSQL): each partitioned table has partitions ahead of time, and raw
 * history past its retention goes by whole days. `skipped` when another instance holds the
 * work's lock.
 */
export interface HistoryPartitions {
  maintain(
    now: number,
    rawRetentionDays: number,
  ): Promise<{ created: number; dropped: string[]; skipped: boolean }>;
}

/** Runs work once across instances sharing a database (issue 23: jobs run exactly once). */
export interface JobLocks {
  /**
   * Runs fn unless another instance is running the job of this name; `ran` says which. With
   * `turn`, also skipped when the job's last run on any instance already covers this turn:
   * `nextRunAt(lastStart)` is still ahead of `now` (instances' timers are not in step, so a
   * lock alone would let a second instance run the same turn just after the first).
   */
  runExclusive<T>(
    name: string,
    fn: () => Promise<T>,
    turn?: { now: number; nextRunAt: (from: number) => number },
  ): Promise<{ ran: true; value: T } | { ran: false }>;
}

/** Rate-limit hits counted across instances, per scope, client key and fixed window. */
export interface RateCountersRepo {
  /** Adds one hit to the window and returns the window's total over every instance. */
  hit(scope: string, key: string, windowStart: number): Promise<number>;
  /** Deletes windows that started before `before`; returns how many. */
  prune(before: number): Promise<number>;
}

export * from './ports-traffic.js';
export * from './ports-alerts.js';
export * from './channel-ports.js';
