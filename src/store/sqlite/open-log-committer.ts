import type BetterSqlite3 from 'better-sqlite3';
import { encodeProjection, encodeSample } from '../history-blocks/open-log-record.js';
import type { BatchCommitter, DeviceKind, MetricsWrite, MetricsWriteOutcome } from '../ports.js';
import { DeviceRegistry } from './device-registry.js';
import { checkpointDelay } from './metrics-engine.js';
import {
  HOST_COLUMNS,
  HOST_SCALES,
  encodeDevices,
  toStored,
  type EncodedDevice,
} from './metrics-codec.js';
import type { OpenLogFile } from './open-log.js';

/**
 * The open-block log's side of a batch (docs/ingest-disk-writes.md): the same rules as
 * MetricsEngine (device limit, receive order decides the current projection, projection every
 * 30–45 s per node), but each report becomes a sample record, and a due projection a projection
 * record, appended to the log instead of rows in `metrics_raw` and `node_current`. New devices
 * and a changed node address still go to SQLite, in a transaction that writes nothing when there
 * are none; `sqliteWritten` says whether the WAL must be synced with the log before answering.
 * Not yet used by the ingest worker.
 */
export class OpenLogCommitter implements BatchCommitter {
  readonly devices: DeviceRegistry;
  private readonly updateIp: BetterSqlite3.Statement<[string, number, string]>;
  private readonly selectCurrent: BetterSqlite3.Statement<[number], { received_at: number }>;
  private readonly changes: BetterSqlite3.Statement<[], number>;
  private readonly knownIp = new Map<number, string>();
  private readonly marks = new Map<number, { receivedAt: number; storedAt: number } | null>();
  /** Whether the last batch wrote to SQLite (a new device, an address): sync the WAL too. */
  sqliteWritten = false;

  constructor(
    private readonly db: BetterSqlite3.Database,
    private readonly log: OpenLogFile,
    private readonly now: () => number,
    readonly maxDevicesPerNode?: number,
  ) {
    this.devices = new DeviceRegistry(db, maxDevicesPerNode);
    this.updateIp = db.prepare('UPDATE nodes SET ip = ? WHERE id = ? AND ip IS NOT ?');
    this.selectCurrent = db.prepare('SELECT received_at FROM node_current WHERE node_id = ?');
    this.changes = db.prepare('SELECT total_changes()').pluck() as BetterSqlite3.Statement<
      [],
      number
    >;
  }

  commitBatch(entries: readonly MetricsWrite[]): MetricsWriteOutcome[] {
    const startedAt = this.now();
    const outcomes: MetricsWriteOutcome[] = [];
    const records: Buffer[][] = [];
    const staged = new Map<number, { receivedAt: number; storedAt: number }>();
    const before = this.changes.get() as number;
    this.devices.begin();
    try {
      this.db.transaction(() => {
        for (const e of entries) {
          const out: Buffer[] = [];
          records.push(out);
          outcomes.push(e.deadline < startedAt ? 'expired' : this.store(e, out, staged));
        }
      })();
      this.devices.commit();
    } catch (err) {
      this.devices.rollback();
      throw err;
    }
    this.sqliteWritten = (this.changes.get() as number) !== before;
    // A report whose deadline passed while the batch was built is left out of the log.
    const at = this.now();
    const append: Buffer[] = [];
    entries.forEach((e, i) => {
      if (outcomes[i] === 'current' || outcomes[i] === 'history') {
        if (e.deadline < at) outcomes[i] = 'expired';
        else append.push(...records[i]!);
      }
    });
    this.log.append(append);
    for (const [id, mark] of staged) this.marks.set(id, mark);
    return outcomes;
  }

  private store(
    e: MetricsWrite,
    out: Buffer[],
    staged: Map<number, { receivedAt: number; storedAt: number }>,
  ): MetricsWriteOutcome {
    if (!this.devices.admits(e.nodeId, e.devices)) return 'device_limit';
    const byKind: Record<DeviceKind, EncodedDevice[]> = { iface: [], io: [], usage: [], temp: [] };
    for (const d of e.devices) {
      byKind[d.kind].push({ id: this.devices.idOf(e.nodeId, d, e.receivedAt), values: d.values });
    }
    const host: Array<number | null> = new Array<number | null>(HOST_COLUMNS.length);
    for (let i = 0; i < HOST_COLUMNS.length; i++) {
      const v = e.host[i];
      host[i] = v === null || v === undefined ? null : toStored(v, HOST_SCALES[i] ?? 1);
    }
    out.push(
      encodeSample({ node: e.nodeId, at: e.receivedAt, host, devices: encodeDevices(byKind) }),
    );
    const mark = staged.get(e.nodeId) ?? this.markOf(e.nodeId);
    if (mark && e.receivedAt < mark.receivedAt) return 'history';
    let storedAt = mark?.storedAt;
    if (storedAt === undefined || e.receivedAt - storedAt >= checkpointDelay(e.nodeId)) {
      const c = e.current;
      out.push(
        encodeProjection({
          node: e.nodeId,
          at: e.receivedAt,
          reportedAt: c.reportedAt,
          runtimeJson: JSON.stringify(c.runtime),
          smartJson: c.smartJson,
          thermalJson: c.thermalJson,
          pressureJson: c.pressureJson,
        }),
      );
      storedAt = e.receivedAt;
    }
    staged.set(e.nodeId, { receivedAt: e.receivedAt, storedAt });
    if (e.ip !== null && this.knownIp.get(e.nodeId) !== e.ip) {
      this.updateIp.run(e.ip, e.nodeId, e.ip);
      this.knownIp.set(e.nodeId, e.ip);
    }
    return 'current';
  }

  private markOf(nodeId: number): { receivedAt: number; storedAt: number } | null {
    let mark = this.marks.get(nodeId);
    if (mark === undefined) {
      const row = this.selectCurrent.get(nodeId);
      mark = row ? { receivedAt: row.received_at, storedAt: row.received_at } : null;
      this.marks.set(nodeId, mark);
    }
    return mark;
  }
}
