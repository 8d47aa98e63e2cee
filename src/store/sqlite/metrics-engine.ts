import type BetterSqlite3 from 'better-sqlite3';
import type { DeviceRegistry } from './device-registry.js';
import type { MetricsWrite, MetricsWriteOutcome } from '../ports.js';
import { HOST_COLUMNS } from './metrics-codec.js';
import { UPSERT_NODE_CURRENT_SQL, currentParams } from './current-sql.js';
import { ReportRules, SOLE_WRITER, firstFreeTime, type WriteSlot } from './report-rules.js';

export { checkpointDelay, CURRENT_CHECKPOINT_MS, SOLE_WRITER } from './report-rules.js';
export type { WriteSlot } from './report-rules.js';

/**
 * Commits batches of accepted reports as rows: one `metrics_raw` row each, plus the current
 * projection in `node_current` when it is due (the rules are report-rules.ts, shared with the
 * open-block log's OpenLogCommitter). Used where there is no log: in-memory databases and the
 * inline pipeline. Synchronous; it runs wherever the writer connection lives.
 */
export class MetricsEngine {
  readonly rules: ReportRules;
  private readonly insertRaw: BetterSqlite3.Statement<unknown[]>;
  private readonly upsertCurrent: BetterSqlite3.Statement<unknown[]>;
  /** Reused bind array for raw inserts: node, time, host columns, devices blob. */
  private readonly rawParams: unknown[] = new Array<unknown>(HOST_COLUMNS.length + 3);
  private readonly writer = { begin: () => {}, store: (e: MetricsWrite) => this.store(e) };

  constructor(
    readonly db: BetterSqlite3.Database,
    now: () => number,
    readonly slot: WriteSlot = SOLE_WRITER,
    maxDevicesPerNode?: number,
  ) {
    this.rules = new ReportRules(db, now, slot, maxDevicesPerNode);
    const cols = ['node_id', 'received_at', ...HOST_COLUMNS, 'devices'];
    this.insertRaw = db.prepare(
      `INSERT INTO metrics_raw (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})
       ON CONFLICT DO NOTHING`,
    );
    this.upsertCurrent = db.prepare(UPSERT_NODE_CURRENT_SQL);
  }

  get devices(): DeviceRegistry {
    return this.rules.devices;
  }

  /**
   * Stores a batch in one transaction and reports each entry's outcome in input order. Entries
   * whose deadline has passed before COMMIT are left out entirely.
   */
  commitBatch(entries: readonly MetricsWrite[]): MetricsWriteOutcome[] {
    return this.rules.commit(entries, this.writer);
  }

  private store(e: MetricsWrite): MetricsWriteOutcome {
    const stored = this.rules.stored(e);
    if (!stored) return 'device_limit';
    const params = this.rawParams;
    params[0] = e.nodeId;
    for (let i = 0; i < HOST_COLUMNS.length; i++) params[i + 2] = stored.host[i];
    params[HOST_COLUMNS.length + 2] = stored.devices;
    firstFreeTime(e.nodeId, e.receivedAt, (at) => {
      params[1] = at;
      return this.insertRaw.run(params).changes === 1;
    });
    const decision = this.rules.current(e);
    if (decision === 'history') return 'history';
    if (decision !== 'current') {
      this.upsertCurrent.run(currentParams(e));
    }
    return 'current';
  }
}
