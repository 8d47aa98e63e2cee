import type pg from 'pg';
import type {
  AsyncBatchCommitter,
  DeviceKind,
  MetricsWrite,
  MetricsWriteOutcome,
} from '../ports.js';
import { checkpointDelay, CURRENT_CHECKPOINT_MS } from '../sqlite/metrics-engine.js';
import {
  HOST_COLUMNS,
  HOST_SCALES,
  encodeDevices,
  toStored,
  type EncodedDevice,
} from '../sqlite/metrics-codec.js';
import { bigintArray, docColumns, docsColumn, encodeDocs } from './array-params.js';
import { PgDeviceRegistry } from './device-registry.js';
import type { PartitionGuard } from './partition-guard.js';

/** Same-millisecond reports of one node get the next free millisecond (bounded search). */
const MAX_KEY_PROBES = 1000;

/**
 * Two instances storing the same node's same-millisecond reports can lock each other's keys in
 * opposite order (a probe for the next free millisecond is a second statement): PostgreSQL then
 * aborts one transaction with a deadlock. Nothing of it was stored, so it is run again.
 */
const MAX_TRANSIENT_RETRIES = 5;
const TRANSIENT_CODES = new Set(['40P01', '40001']); // deadlock_detected, serialization_failure

function isTransient(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && TRANSIENT_CODES.has(code);
}

interface CurrentMark {
  receivedAt: number;
  storedAt: number;
}

class DeadlinePassed extends Error {
  constructor(readonly expired: ReadonlySet<MetricsWrite>) {
    super('write deadline passed before commit');
  }
}

const RAW_COLUMNS = ['node_id', 'received_at', ...HOST_COLUMNS, 'devices'];
const INSERT_RAW = `INSERT INTO metrics_raw (${RAW_COLUMNS.join(', ')})
  SELECT * FROM unnest(${RAW_COLUMNS.map(
    (c, i) => `$${i + 1}::${c === 'devices' ? 'bytea' : 'bigint'}[]`,
  ).join(', ')})
  ON CONFLICT DO NOTHING RETURNING node_id, received_at`;

/**
 * The four JSON columns of a projection upsert (runtime, SMART, thermal, pressure) from
 * parameters `$first`..`$first+3` (jsonParams), zipped with the other columns by ROWS FROM.
 */
function jsonColumns(first: number): string {
  return [0, 1, 2, 3].map((i) => docsColumn(first + i)).join(', ');
}

/** Each row's documents as a preparation thread packed them, else encoded here (inline). */
function jsonParams(rows: readonly MetricsWrite[]): Buffer[] {
  const docs = rows.map(
    ({ current: c }) =>
      c.docs ??
      encodeDocs([
        c.runtimeJson ?? JSON.stringify(c.runtime),
        c.smartJson,
        c.thermalJson,
        c.pressureJson,
      ]),
  );
  return docColumns(docs, 4);
}

interface RawRow {
  entry: MetricsWrite;
  receivedAt: number;
  host: Array<number | null>;
  devices: Buffer;
}

/**
 * Commits batches of accepted reports on PostgreSQL with the same rules and outcomes as the
 * SQLite engine (store/sqlite/metrics-engine.ts): one raw history row per report, the current
 * projection by server receive order, rewritten when 30-45 s old; entries past their deadline
 * before COMMIT are left out. With several instances (`live`) every current report is also
 * written to the unlogged node_live, which the other instances' front views re-read. A batch is one transaction of a few multi-row statements (raw
 * rows through `unnest` arrays, so a batch of any size is one statement per table), and the
 * promise resolves only after COMMIT returned: with PostgreSQL's default
 * `synchronous_commit = on` the batch is then on disk. Batches run one at a time per engine.
 */
export class PgMetricsEngine implements AsyncBatchCommitter {
  readonly devices: PgDeviceRegistry;
  private readonly marks = new Map<number, CurrentMark | null>();
  private readonly knownIp = new Map<number, string>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly pool: pg.Pool,
    private readonly now: () => number,
    private readonly partitions: PartitionGuard,
    maxDevicesPerNode?: number,
    /**
     * Also write every current report to the unlogged `node_live` (migration 0017): several
     * instances read each other's reports from it (docs/postgresql.md "Between instances").
     * node_current keeps its 30-45 s cadence either way.
     */
    private readonly live = false,
  ) {
    this.devices = new PgDeviceRegistry(maxDevicesPerNode);
  }

  get maxDevicesPerNode(): number {
    return this.devices.maxPerNode;
  }

  /** Stores a batch in one transaction; outcomes in input order, after COMMIT. */
  commitBatch(entries: readonly MetricsWrite[]): Promise<MetricsWriteOutcome[]> {
    const run = this.queue.then(() => this.commitNow(entries));
    this.queue = run.catch(() => {});
    return run;
  }

  private async commitNow(entries: readonly MetricsWrite[]): Promise<MetricsWriteOutcome[]> {
    const expired = new Set<MetricsWrite>();
    const startedAt = this.now();
    for (const e of entries) if (e.deadline < startedAt) expired.add(e);
    let outcomes = new Map<MetricsWrite, MetricsWriteOutcome>();
    let retries = 0;
    for (;;) {
      const live = entries.filter((e) => !expired.has(e));
      if (live.length === 0) break;
      // A same-millisecond key moves a row at most a few ms later: maybe into the next day.
      await this.partitions.ensure(live.flatMap((e) => [e.receivedAt, e.receivedAt + 1000]));
      const client = await this.pool.connect();
      const staged = new Map<number, CurrentMark>();
      const ipChanges = new Map<number, string>();
      this.devices.begin();
      try {
        await client.query('BEGIN');
        outcomes = await this.store(client, live, staged, ipChanges);
        const at = this.now();
        const late = live.filter((e) => e.deadline < at);
        if (late.length > 0) throw new DeadlinePassed(new Set(late));
        await client.query('COMMIT');
        this.devices.commit();
        for (const [id, ip] of ipChanges) this.knownIp.set(id, ip);
        for (const [id, mark] of staged) this.marks.set(id, mark);
        break;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        this.devices.rollback();
        if (isTransient(err) && retries < MAX_TRANSIENT_RETRIES) {
          retries++;
          continue;
        }
        if (!(err instanceof DeadlinePassed)) throw err;
        for (const e of err.expired) expired.add(e);
      } finally {
        client.release();
      }
    }
    return entries.map((e) => (expired.has(e) ? 'expired' : (outcomes.get(e) ?? 'expired')));
  }

  private async store(
    client: pg.PoolClient,
    live: readonly MetricsWrite[],
    staged: Map<number, CurrentMark>,
    ipChanges: Map<number, string>,
  ): Promise<Map<MetricsWrite, MetricsWriteOutcome>> {
    const outcomes = new Map<MetricsWrite, MetricsWriteOutcome>();
    const nodeIds = [...new Set(live.map((e) => e.nodeId))];
    await this.devices.load(client, nodeIds);
    await this.loadMarks(client, nodeIds);

    const accepted: MetricsWrite[] = [];
    for (const e of live) {
      if (!this.devices.admits(e.nodeId, e.devices)) {
        outcomes.set(e, 'device_limit');
        continue;
      }
      this.devices.note(e.nodeId, e.devices, e.receivedAt);
      accepted.push(e);
    }
    if (accepted.length === 0) return outcomes;
    await this.devices.flush(client);
    await this.insertRaw(
      client,
      accepted.map((e) => this.rawRow(e)),
    );

    const upserts = new Map<number, { e: MetricsWrite; first: number }>();
    /** Each node's latest current report of the batch, for node_live. */
    const lives = new Map<number, MetricsWrite>();
    for (const e of accepted) {
      const mark = staged.get(e.nodeId) ?? this.marks.get(e.nodeId) ?? null;
      // Spec §4.4 rule 3: an older report (by receive time) stays history only.
      if (mark && e.receivedAt < mark.receivedAt) {
        outcomes.set(e, 'history');
        continue;
      }
      let storedAt = mark?.storedAt;
      if (this.live) lives.set(e.nodeId, e);
      if (storedAt === undefined || e.receivedAt - storedAt >= checkpointDelay(e.nodeId)) {
        upserts.set(e.nodeId, { e, first: upserts.get(e.nodeId)?.first ?? e.receivedAt });
        storedAt = e.receivedAt;
      }
      staged.set(e.nodeId, { receivedAt: e.receivedAt, storedAt });
      if (e.ip !== null && this.knownIp.get(e.nodeId) !== e.ip) ipChanges.set(e.nodeId, e.ip);
      outcomes.set(e, 'current');
    }
    if (lives.size > 0) await this.upsertLive(client, lives);
    if (upserts.size > 0) {
      // In node order, like every multi-row write here: concurrent instances lock alike. A
      // row another instance rewrote less than 30 s ago is left as it is: with several
      // instances node_current is still rewritten about once per 30-45 s, not once per
      // instance (node_live carries the latest report meanwhile). Older reports never
      // replace newer ones either way.
      const rows = [...upserts.values()].sort((a, b) => a.e.nodeId - b.e.nodeId);
      await client.query(
        `INSERT INTO node_current AS c (node_id, received_at, reported_at, first_received_at,
           runtime_json, smart_json, thermal_json, pressure_json)
         SELECT * FROM ROWS FROM (unnest($1::bigint[]), unnest($2::bigint[]),
           unnest($3::bigint[]), unnest($4::bigint[]), ${jsonColumns(5)})
         ON CONFLICT (node_id) DO UPDATE SET
           received_at = excluded.received_at, reported_at = excluded.reported_at,
           runtime_json = excluded.runtime_json, smart_json = excluded.smart_json,
           thermal_json = excluded.thermal_json, pressure_json = excluded.pressure_json
         WHERE excluded.received_at - c.received_at >= ${CURRENT_CHECKPOINT_MS}`,
        [
          bigintArray(rows.map((r) => r.e.nodeId)),
          bigintArray(rows.map((r) => r.e.receivedAt)),
          bigintArray(rows.map((r) => r.e.current.reportedAt)),
          bigintArray(rows.map((r) => r.first)),
          ...jsonParams(rows.map((r) => r.e)),
        ],
      );
    }
    if (ipChanges.size > 0) {
      const ips = [...ipChanges].sort((a, b) => a[0] - b[0]);
      await client.query(
        `UPDATE nodes SET ip = v.ip FROM unnest($1::bigint[], $2::text[]) AS v (id, ip)
         WHERE nodes.id = v.id AND nodes.ip IS DISTINCT FROM v.ip`,
        [ips.map(([id]) => id), ips.map(([, ip]) => ip)],
      );
    }
    return outcomes;
  }

  /** Every current report of the batch, the latest per node, into node_live. */
  private async upsertLive(client: pg.PoolClient, lives: Map<number, MetricsWrite>) {
    const rows = [...lives.values()].sort((a, b) => a.nodeId - b.nodeId);
    await client.query(
      `INSERT INTO node_live AS l (node_id, received_at, reported_at,
         runtime_json, smart_json, thermal_json, pressure_json)
       SELECT * FROM ROWS FROM (unnest($1::bigint[]), unnest($2::bigint[]),
         unnest($3::bigint[]), ${jsonColumns(4)})
       ON CONFLICT (node_id) DO UPDATE SET
         received_at = excluded.received_at, reported_at = excluded.reported_at,
         runtime_json = excluded.runtime_json, smart_json = excluded.smart_json,
         thermal_json = excluded.thermal_json, pressure_json = excluded.pressure_json
       WHERE excluded.received_at >= l.received_at`,
      [
        bigintArray(rows.map((e) => e.nodeId)),
        bigintArray(rows.map((e) => e.receivedAt)),
        bigintArray(rows.map((e) => e.current.reportedAt)),
        ...jsonParams(rows),
      ],
    );
  }

  private async loadMarks(client: pg.PoolClient, nodeIds: readonly number[]): Promise<void> {
    const missing = nodeIds.filter((id) => !this.marks.has(id));
    if (missing.length === 0) return;
    // The newest report is node_live's when another instance (or this one) wrote it since
    // node_current's last rewrite; the cadence runs from node_current's.
    const res = await client.query<{ node_id: number; received_at: number; live_at: number }>(
      `SELECT c.node_id, c.received_at, greatest(c.received_at, l.received_at) AS live_at
       FROM node_current c LEFT JOIN node_live l ON l.node_id = c.node_id
       WHERE c.node_id = ANY($1::bigint[])`,
      [missing],
    );
    for (const id of missing) this.marks.set(id, null);
    for (const r of res.rows) {
      this.marks.set(r.node_id, { receivedAt: r.live_at, storedAt: r.received_at });
    }
  }

  private rawRow(e: MetricsWrite): RawRow {
    const byKind: Record<DeviceKind, EncodedDevice[]> = { iface: [], io: [], usage: [], temp: [] };
    for (const d of e.devices) {
      byKind[d.kind].push({ id: this.devices.idOf(e.nodeId, d), values: d.values });
    }
    const host = HOST_COLUMNS.map((_, i) => {
      const v = e.host[i];
      return v === null || v === undefined ? null : toStored(v, HOST_SCALES[i] ?? 1);
    });
    return { entry: e, receivedAt: e.receivedAt, host, devices: encodeDevices(byKind) };
  }

  /**
   * Inserts raw rows; a row whose (node, time) is taken, by an earlier row of the batch or a
   * stored one, moves to the next free millisecond, as on SQLite.
   */
  private async insertRaw(client: pg.PoolClient, rows: RawRow[]): Promise<void> {
    const used = new Set<string>();
    const keyOf = (r: RawRow) => `${r.entry.nodeId}:${r.receivedAt}`;
    for (const r of rows) {
      while (used.has(keyOf(r))) r.receivedAt++;
      used.add(keyOf(r));
    }
    let unstored = rows.sort(
      (a, b) => a.entry.nodeId - b.entry.nodeId || a.receivedAt - b.receivedAt,
    );
    for (let probe = 0; unstored.length > 0; probe++) {
      if (probe > MAX_KEY_PROBES) {
        throw new Error(`no free raw key for node ${unstored[0]?.entry.nodeId ?? '?'}`);
      }
      const params: unknown[] = [
        bigintArray(unstored.map((r) => r.entry.nodeId)),
        bigintArray(unstored.map((r) => r.receivedAt)),
        ...HOST_COLUMNS.map((_, i) => bigintArray(unstored.map((r) => r.host[i]))),
        unstored.map((r) => r.devices),
      ];
      const res = await client.query<{ node_id: number; received_at: number }>(INSERT_RAW, params);
      // The usual case: every row found its key free.
      if (res.rowCount === unstored.length) break;
      const stored = new Set(res.rows.map((x) => `${x.node_id}:${x.received_at}`));
      unstored = unstored.filter((r) => !stored.has(keyOf(r)));
      for (const r of unstored) {
        do r.receivedAt++;
        while (used.has(keyOf(r)));
        used.add(keyOf(r));
      }
    }
  }
}
