import type BetterSqlite3 from 'better-sqlite3';
import {
  encodeProjection,
  encodeSample,
  recordHead,
  SAMPLE,
} from '../history-blocks/open-log-record.js';
import type { BatchCommitter, MetricsWrite, MetricsWriteOutcome } from '../ports.js';
import type { DeviceRegistry } from './device-registry.js';
import { UPSERT_NODE_CURRENT_SQL, currentParams } from './current-sql.js';
import { RECORD_FRAME_BYTES, type OpenLogFile } from './open-log.js';
import { OpenLogIndex } from './open-log-index.js';
import { ReportRules, SOLE_WRITER, firstFreeTime, type WriteSlot } from './report-rules.js';

interface Pending {
  sample: Buffer;
  /** Set when the report's projection is due: encoded after COMMIT, outside the write slot. */
  projection?: MetricsWrite;
}

/**
 * The open-block log's side of a batch (docs/ingest-disk-writes.md), on the ingest rules shared
 * with MetricsEngine (report-rules.ts): each report becomes a sample record and a due projection
 * a projection record, appended to the log instead of rows in `metrics_raw` and `node_current`.
 * New devices, a changed node address and a node's very first projection (so every reporting
 * node has its `node_current` row at once, as before) still go to SQLite, in a transaction that
 * writes nothing when there are none; `sqliteWritten` says whether the WAL must be synced with
 * the log before answering.
 *
 * A sample's time is its receive time, moved to the next free millisecond when the node already
 * has a sample at that time in the log (as `metrics_raw`'s key moves it), and never before the
 * log's seal boundary, nor that of a seal in progress (records before it would count as sealed,
 * or be dropped by the rotation).
 */
export class OpenLogCommitter implements BatchCommitter {
  readonly rules: ReportRules;
  /** The writer's own index of its log: for the seal step and for time collisions. */
  readonly index: OpenLogIndex;
  private readonly upsertCurrent: BetterSqlite3.Statement<unknown[]>;
  private readonly changes: BetterSqlite3.Statement<[], number>;
  /** Newest sample time of each node in the log; a later time cannot collide. */
  private readonly lastAt = new Map<number, number>();
  private pending = new Map<MetricsWrite, Pending>();
  private batchTimes = new Map<number, Set<number>>();
  private readonly writer = {
    outsideSqlite: true,
    begin: () => {
      this.pending = new Map();
      this.batchTimes = new Map();
    },
    store: (e: MetricsWrite) => this.store(e),
  };
  /** Whether the last batch wrote to SQLite (a new device, an address): sync the WAL too. */
  sqliteWritten = false;
  /** Bytes of sample and projection records appended so far, framing included. */
  readonly appended = { samples: 0, projections: 0 };

  constructor(
    readonly db: BetterSqlite3.Database,
    readonly log: OpenLogFile,
    now: () => number,
    readonly slot: WriteSlot = SOLE_WRITER,
    maxDevicesPerNode?: number,
  ) {
    this.rules = new ReportRules(db, now, slot, maxDevicesPerNode);
    this.index = new OpenLogIndex(log.path);
    this.upsertCurrent = db.prepare(UPSERT_NODE_CURRENT_SQL);
    this.changes = db.prepare('SELECT total_changes()').pluck() as BetterSqlite3.Statement<
      [],
      number
    >;
    for (const p of log.replayed.payloads) {
      const head = recordHead(p);
      if (head.type === SAMPLE) this.noteTime(head.node, head.at);
    }
  }

  get devices(): DeviceRegistry {
    return this.rules.devices;
  }

  get maxDevicesPerNode(): number {
    return this.rules.devices.maxPerNode;
  }

  commitBatch(entries: readonly MetricsWrite[]): MetricsWriteOutcome[] {
    const before = this.changes.get() as number;
    const outcomes = this.rules.commit(entries, this.writer);
    this.sqliteWritten = (this.changes.get() as number) !== before;
    const append: Buffer[] = [];
    let samples = 0;
    let projections = 0;
    entries.forEach((e, i) => {
      const p = this.pending.get(e);
      if (!p || (outcomes[i] !== 'current' && outcomes[i] !== 'history')) return;
      append.push(p.sample);
      samples += p.sample.length + RECORD_FRAME_BYTES;
      const c = p.projection?.current;
      if (c) {
        const record = encodeProjection({
          node: e.nodeId,
          at: e.receivedAt,
          reportedAt: c.reportedAt,
          runtimeJson: c.runtimeJson ?? JSON.stringify(c.runtime),
          smartJson: c.smartJson,
          thermalJson: c.thermalJson,
          pressureJson: c.pressureJson,
        });
        append.push(record);
        projections += record.length + RECORD_FRAME_BYTES;
      }
    });
    this.log.append(append);
    this.appended.samples += samples;
    this.appended.projections += projections;
    for (const [node, times] of this.batchTimes) for (const at of times) this.noteTime(node, at);
    return outcomes;
  }

  private store(e: MetricsWrite): MetricsWriteOutcome {
    const stored = this.rules.stored(e);
    if (!stored) return 'device_limit';
    let times = this.batchTimes.get(e.nodeId);
    if (!times) this.batchTimes.set(e.nodeId, (times = new Set()));
    const batch = times;
    const at = firstFreeTime(e.nodeId, Math.max(e.receivedAt, this.log.appendFrom), (t) => {
      if (batch.has(t) || this.inLog(e.nodeId, t)) return false;
      batch.add(t);
      return true;
    });
    const pending: Pending = {
      sample: encodeSample({ node: e.nodeId, at, host: stored.host, devices: stored.devices }),
    };
    this.pending.set(e, pending);
    const decision = this.rules.current(e);
    if (decision === 'history') return 'history';
    if (decision === 'due') pending.projection = e;
    if (decision === 'first') {
      this.upsertCurrent.run(currentParams(e));
    }
    return 'current';
  }

  /** Whether the node has a sample at `at` in the log (read only when `at` is not its newest). */
  private inLog(nodeId: number, at: number): boolean {
    const last = this.lastAt.get(nodeId);
    if (last === undefined || at > last) return false;
    this.index.refresh();
    return this.index.times(nodeId, at, at + 1).length > 0;
  }

  private noteTime(nodeId: number, at: number): void {
    const last = this.lastAt.get(nodeId);
    if (last === undefined || at > last) this.lastAt.set(nodeId, at);
  }
}
