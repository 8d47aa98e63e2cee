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
import { UPSERT_NODE_CURRENT_SQL } from './current-sql.js';

class DeadlinePassed extends Error {
  constructor(readonly expired: ReadonlySet<MetricsWrite>) {
    super('write deadline passed before commit');
  }
}

/** Same-millisecond reports of one node get the next free millisecond (bounded search). */
const MAX_KEY_PROBES = 1000;

/**
 * How old a node's stored current projection may get before a newer report rewrites it. The
 * live projection is kept in memory by the front state; the stored row only seeds it after a
 * restart, and history rows are written for every report regardless. Rewriting the ~4 KB row on
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
  /** Receive time of the projection stored in node_current. */
  storedAt: number;
}

/**
 * Commits batches of accepted reports: one raw history row each, plus the current projection
 * when the report is the newest the node has had (server receive order, spec §4.4 rule 3).
 * Synchronous; it runs wherever the writer connection lives (worker thread or inline).
 */
export class MetricsEngine {
  readonly devices: DeviceRegistry;
  private readonly insertRaw: BetterSqlite3.Statement<unknown[]>;
  private readonly upsertCurrent: BetterSqlite3.Statement<unknown[]>;
  private readonly updateIp: BetterSqlite3.Statement<[string, number, string]>;
  private readonly selectCurrent: BetterSqlite3.Statement<[number], { received_at: number }>;
  private readonly knownIp = new Map<number, string>();
  /** Per node: newest receive time and the stored projection's; reads node_current once. */
  private readonly marks = new Map<number, CurrentMark | null>();
  /** Marks changed by the open transaction; they replace `marks` only after COMMIT. */
  private readonly staged = new Map<number, CurrentMark>();
  /** Reused bind array for raw inserts: node, time, host columns, devices blob. */
  private readonly rawParams: unknown[] = new Array<unknown>(HOST_COLUMNS.length + 3);

  constructor(
    readonly db: BetterSqlite3.Database,
    private readonly now: () => number,
    readonly slot: WriteSlot = SOLE_WRITER,
    maxDevicesPerNode?: number,
  ) {
    this.devices = new DeviceRegistry(db, maxDevicesPerNode);
    const cols = ['node_id', 'received_at', ...HOST_COLUMNS, 'devices'];
    this.insertRaw = db.prepare(
      `INSERT INTO metrics_raw (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})
       ON CONFLICT DO NOTHING`,
    );
    this.upsertCurrent = db.prepare(UPSERT_NODE_CURRENT_SQL);
    this.selectCurrent = db.prepare('SELECT received_at FROM node_current WHERE node_id = ?');
    this.updateIp = db.prepare('UPDATE nodes SET ip = ? WHERE id = ? AND ip IS NOT ?');
  }

  /**
   * Stores a batch in one transaction and reports each entry's outcome in input order. Entries
   * whose deadline has passed before COMMIT are left out entirely.
   */
  commitBatch(entries: readonly MetricsWrite[]): MetricsWriteOutcome[] {
    const expired = new Set<MetricsWrite>();
    const startedAt = this.now();
    for (const e of entries) if (e.deadline < startedAt) expired.add(e);
    const outcomes = new Map<MetricsWrite, MetricsWriteOutcome>();
    for (;;) {
      const live = entries.filter((e) => !expired.has(e));
      if (live.length === 0) break;
      try {
        this.devices.begin();
        this.staged.clear();
        const ipChanges: Array<[number, string]> = [];
        this.slot.acquire();
        try {
          // IMMEDIATE: take the write lock up front, so no other writer can slip in between
          // this transaction's first read and its first write.
          this.db
            .transaction(() => {
              outcomes.clear();
              for (const e of live) outcomes.set(e, this.store(e, ipChanges));
              const at = this.now();
              const late = live.filter((e) => e.deadline < at);
              if (late.length > 0) throw new DeadlinePassed(new Set(late));
            })
            .immediate();
        } finally {
          this.slot.release();
        }
        this.devices.commit();
        for (const [id, ip] of ipChanges) this.knownIp.set(id, ip);
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

  private store(e: MetricsWrite, ipChanges: Array<[number, string]>): MetricsWriteOutcome {
    if (!this.devices.admits(e.nodeId, e.devices)) return 'device_limit';
    const byKind: Record<DeviceKind, EncodedDevice[]> = { iface: [], io: [], usage: [], temp: [] };
    for (const d of e.devices) {
      byKind[d.kind].push({ id: this.devices.idOf(e.nodeId, d, e.receivedAt), values: d.values });
    }
    const params = this.rawParams;
    params[0] = e.nodeId;
    params[1] = e.receivedAt;
    for (let i = 0; i < HOST_COLUMNS.length; i++) {
      const v = e.host[i];
      params[i + 2] = v === null || v === undefined ? null : toStored(v, HOST_SCALES[i] ?? 1);
    }
    params[HOST_COLUMNS.length + 2] = encodeDevices(byKind);
    for (let probe = 0; ; probe++) {
      if (this.insertRaw.run(params).changes === 1) break;
      if (probe >= MAX_KEY_PROBES) throw new Error(`no free raw key for node ${e.nodeId}`);
      params[1] = (params[1] as number) + 1;
    }
    const mark = this.markOf(e.nodeId);
    // Spec §4.4 rule 3: an older report (by receive time) stays history only.
    if (mark && e.receivedAt < mark.receivedAt) return 'history';
    let storedAt = mark?.storedAt;
    if (storedAt === undefined || e.receivedAt - storedAt >= checkpointDelay(e.nodeId)) {
      const c = e.current;
      this.upsertCurrent.run(
        e.nodeId,
        e.receivedAt,
        c.reportedAt,
        e.receivedAt,
        c.runtimeJson ?? JSON.stringify(c.runtime),
        c.smartJson,
        c.thermalJson,
        c.pressureJson,
      );
      storedAt = e.receivedAt;
    }
    this.staged.set(e.nodeId, { receivedAt: e.receivedAt, storedAt });
    if (e.ip !== null && this.knownIp.get(e.nodeId) !== e.ip) {
      this.updateIp.run(e.ip, e.nodeId, e.ip);
      ipChanges.push([e.nodeId, e.ip]);
    }
    return 'current';
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
