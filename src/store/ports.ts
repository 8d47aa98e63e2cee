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
  firstReports(): Promise<Map<number, number>>;
  recordFirstReport(nodeId: number, receivedAt: number): Promise<void>;
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
  /** Minute sums in [from, to) per node: the online-rate series reads report counts from here. */
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

export interface Store {
  readonly engine: 'sqlite' | 'postgres';
  readonly settings: SettingsRepo;
  readonly nodes: NodesRepo;
  readonly sessions: SessionsRepo;
  readonly uptime: UptimeRepo;
  /** Liveness probe for readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
