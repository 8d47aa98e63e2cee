import type BetterSqlite3 from 'better-sqlite3';
import type { DeviceKind, MetricsWrite, MetricsWriteOutcome } from '../ports.js';
import { DeviceRegistry } from './device-registry.js';
import {
  HOST_COLUMNS,
  HOST_SCALES,
  encodeDevices,
  toStored,
  type EncodedDevice,
} from './metrics-codec.js';

/**
 * The ingest rules of a SQLite metrics writer, one copy for both ways of storing a batch
 * (MetricsEngine: `metrics_raw` rows and `node_current`; OpenLogCommitter: records in the
 * open-block log): the write slot and deadlines around one transaction, the node's device limit,
 * the stored integers, receive order deciding the current projection (spec §4.4 rule 3), the
 * projection's checkpoint cadence, the node's address, and the next free millisecond for a
 * report whose receive time a report of the same node already holds.
 */

class DeadlinePassed extends Error {
  constructor(readonly expired: ReadonlySet<MetricsWrite>) {
    super('write deadline passed before commit');
  }
}

/** Same-millisecond reports of one node get the next free millisecond (bounded search). */
const MAX_KEY_PROBES = 1000;

/**
 * The first time from `at` on that `take` accepts (it stores the report there and says whether
 * the time was free): one node's reports in the same millisecond keep apart, the later one a
 * millisecond on, so every read sees each of them as its own point.
 */
export function firstFreeTime(nodeId: number, at: number, take: (at: number) => boolean): number {
  for (let probe = 0; ; probe++) {
    if (take(at + probe)) return at + probe;
    if (probe >= MAX_KEY_PROBES) throw new Error(`no free raw key for node ${nodeId}`);
  }
}

/**
 * How old a node's stored current projection may get before a newer report rewrites it. The
 * live projection is kept in memory by the front state; the stored row only seeds it after a
 * restart, and history is written for every report regardless. Rewriting the ~4 KB row on
 * every report (every 3 s per node) was most of the disk traffic of ingest.
 */
export const CURRENT_CHECKPOINT_MS = 30_000;

/**
 * Each node waits up to this much longer, by a fixed share of its id, so that nodes which all
 * reported first at the same moment (a restart) do not all come due in the same second.
 */
const CHECKPOINT_SPREAD_MS = 15_000;

export function checkpointDelay(nodeId: number): number {
  return CURRENT_CHECKPOINT_MS + ((nodeId * 7919) % CHECKPOINT_SPREAD_MS);
}

/**
 * Exclusive use of the database's write slot, taken around every write transaction when more
 * than one thread writes metrics (see workers/write-lock.ts); a no-op for a single writer.
 */
export interface WriteSlot {
  acquire(): void;
  release(): void;
}

export const SOLE_WRITER: WriteSlot = { acquire() {}, release() {} };

interface CurrentMark {
  /** Receive time of the node's newest report (the live projection's, in memory). */
  receivedAt: number;
  /** Receive time of the stored projection (node_current, or the open-block log's newest). */
  storedAt: number;
}

/** What a report is to the node's current projection. */
export type CurrentDecision =
  /** Older than the node's newest report: history only. */
  | 'history'
  /** The newest; the stored projection is recent enough. */
  | 'current'
  /** The newest, and the stored projection is due for a rewrite. */
  | 'due'
  /** The node's first report: it has no stored projection at all. */
  | 'first';

/** The stored form of one report: host metrics as scaled integers, devices as a varint blob. */
export interface StoredReport {
  host: Array<number | null>;
  devices: Buffer;
}

/** One batch's storing of a report, called inside the rules' transaction. */
export interface BatchWriter {
  /** Called at the start of each attempt (a retry drops what the last one staged). */
  begin(): void;
  store(e: MetricsWrite): MetricsWriteOutcome;
  /**
   * The writer keeps reports outside SQLite (the open-block log): a batch that registers no
   * device, changes no address and has no node without a stored projection writes nothing to
   * SQLite, so it runs without the write slot and without a write transaction.
   */
  readonly outsideSqlite?: boolean;
}

export class ReportRules {
  readonly devices: DeviceRegistry;
  private readonly updateIp: BetterSqlite3.Statement<[string, number, string]>;
  private readonly selectCurrent: BetterSqlite3.Statement<[number], { received_at: number }>;
  private readonly knownIp = new Map<number, string>();
  /** Per node: newest receive time and the stored projection's; reads node_current once. */
  private readonly marks = new Map<number, CurrentMark | null>();
  /** Marks changed by the open transaction; they replace `marks` only after COMMIT. */
  private readonly staged = new Map<number, CurrentMark>();
  private ipChanges: Array<[number, string]> = [];
  /** Whether the last commit took the write slot (false: it wrote nothing to SQLite). */
  tookSlot = false;

  constructor(
    private readonly db: BetterSqlite3.Database,
    private readonly now: () => number,
    readonly slot: WriteSlot = SOLE_WRITER,
    maxDevicesPerNode?: number,
  ) {
    this.devices = new DeviceRegistry(db, maxDevicesPerNode);
    this.selectCurrent = db.prepare('SELECT received_at FROM node_current WHERE node_id = ?');
    this.updateIp = db.prepare('UPDATE nodes SET ip = ? WHERE id = ? AND ip IS NOT ?');
  }

  /**
   * Stores a batch in one transaction (taken in the write slot) and reports each entry's outcome
   * in input order. Entries whose deadline has passed before COMMIT are left out entirely: the
   * transaction is rolled back and run again without them.
   */
  commit(entries: readonly MetricsWrite[], writer: BatchWriter): MetricsWriteOutcome[] {
    const expired = new Set<MetricsWrite>();
    const startedAt = this.now();
    for (const e of entries) if (e.deadline < startedAt) expired.add(e);
    const outcomes = new Map<MetricsWrite, MetricsWriteOutcome>();
    for (;;) {
      const live = entries.filter((e) => !expired.has(e));
      if (live.length === 0) break;
      const storeAll = () => {
        outcomes.clear();
        writer.begin();
        for (const e of live) outcomes.set(e, writer.store(e));
        const at = this.now();
        const late = live.filter((e) => e.deadline < at);
        if (late.length > 0) throw new DeadlinePassed(new Set(late));
      };
      try {
        this.devices.begin();
        this.staged.clear();
        this.ipChanges = [];
        // A batch that writes nothing to SQLite neither waits for the other ingest thread's
        // commit nor makes it wait (docs/ingest-performance.md#tail-latency).
        this.tookSlot = !(writer.outsideSqlite && this.sqliteFree(live, startedAt));
        if (!this.tookSlot) storeAll();
        else {
          this.slot.acquire();
          try {
            // IMMEDIATE: take the write lock up front, so no other writer can slip in between
            // this transaction's first read and its first write.
            this.db
              .transaction(() => {
                storeAll();
                this.devices.writeSeen();
              })
              .immediate();
          } finally {
            this.slot.release();
          }
        }
        this.devices.commit();
        for (const [id, ip] of this.ipChanges) this.knownIp.set(id, ip);
        for (const [id, mark] of this.staged) this.marks.set(id, mark);
        break;
      } catch (err) {
        this.devices.rollback();
        if (!(err instanceof DeadlinePassed)) throw err;
        for (const e of err.expired) expired.add(e);
      }
    }
    return entries.map((e) => (expired.has(e) ? 'expired' : (outcomes.get(e) ?? 'expired')));
  }

  /**
   * Whether storing `live` writes nothing to SQLite: every node has a stored projection and a
   * known address, every device is registered with the ref and alt it reports, and no device's
   * deferred last-seen time is overdue (DeviceRegistry.seenOverdue). Reads only.
   */
  private sqliteFree(live: readonly MetricsWrite[], now: number): boolean {
    if (this.devices.seenOverdue(now)) return false;
    for (const e of live) {
      if (this.markOf(e.nodeId) === null) return false;
      if (e.ip !== null && this.knownIp.get(e.nodeId) !== e.ip) return false;
      if (!this.devices.known(e.nodeId, e.devices)) return false;
    }
    return true;
  }

  /** The report's stored values; undefined when the node's device limit refuses it. */
  stored(e: MetricsWrite): StoredReport | undefined {
    if (!this.devices.admits(e.nodeId, e.devices)) return undefined;
    const byKind: Record<DeviceKind, EncodedDevice[]> = { iface: [], io: [], usage: [], temp: [] };
    for (const d of e.devices) {
      byKind[d.kind].push({ id: this.devices.idOf(e.nodeId, d, e.receivedAt), values: d.values });
    }
    const host: Array<number | null> = new Array<number | null>(HOST_COLUMNS.length);
    for (let i = 0; i < HOST_COLUMNS.length; i++) {
      const v = e.host[i];
      host[i] = v === null || v === undefined ? null : toStored(v, HOST_SCALES[i] ?? 1);
    }
    return { host, devices: encodeDevices(byKind) };
  }

  /**
   * Decides the report's part in the current projection (call after storing its history) and,
   * when it is the newest, records the node's address. A 'due' or 'first' decision counts the
   * projection as stored at the report's receive time: the caller stores it.
   */
  current(e: MetricsWrite): CurrentDecision {
    const mark = this.markOf(e.nodeId);
    // Spec §4.4 rule 3: an older report (by receive time) stays history only.
    if (mark && e.receivedAt < mark.receivedAt) return 'history';
    let storedAt = mark?.storedAt;
    let decision: CurrentDecision = 'current';
    if (storedAt === undefined) decision = 'first';
    else if (e.receivedAt - storedAt >= checkpointDelay(e.nodeId)) decision = 'due';
    if (decision !== 'current') storedAt = e.receivedAt;
    this.staged.set(e.nodeId, { receivedAt: e.receivedAt, storedAt: storedAt! });
    if (e.ip !== null && this.knownIp.get(e.nodeId) !== e.ip) {
      this.updateIp.run(e.ip, e.nodeId, e.ip);
      this.ipChanges.push([e.nodeId, e.ip]);
    }
    return decision;
  }

  private markOf(nodeId: number): CurrentMark | null {
    const staged = this.staged.get(nodeId);
    if (staged) return staged;
    let mark = this.marks.get(nodeId);
    if (mark === undefined) {
      const row = this.selectCurrent.get(nodeId);
      mark = row ? { receivedAt: row.received_at, storedAt: row.received_at } : null;
      this.marks.set(nodeId, mark);
    }
    return mark;
  }
}
