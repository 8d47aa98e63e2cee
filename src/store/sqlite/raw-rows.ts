import type BetterSqlite3 from 'better-sqlite3';
import { HOST_COLUMNS, HOST_SCALES, decodeDevices } from './metrics-codec.js';
import type { RollupRecord } from './rollup-codec.js';

/** Raw history rows read back: host values in storage order, devices blob undecoded. */
export interface RawRow {
  receivedAt: number;
  host: Array<number | null>;
  devices: Uint8Array | null;
}

const SELECT_ROWS = `SELECT received_at, ${HOST_COLUMNS.join(', ')}, devices FROM metrics_raw
  WHERE node_id = ? AND received_at >= ? AND received_at < ? ORDER BY received_at`;

/** Reads one node's raw rows in [from, to), ascending, unscaled. */
export function rawRowsStatement(db: BetterSqlite3.Database) {
  const stmt = db.prepare(SELECT_ROWS).raw(true);
  return function* rows(nodeId: number, from: number, to: number): Generator<RawRow> {
    for (const r of stmt.iterate(nodeId, from, to) as IterableIterator<unknown[]>) {
      const host: Array<number | null> = new Array<number | null>(HOST_COLUMNS.length);
      for (let i = 0; i < HOST_COLUMNS.length; i++) {
        const v = r[i + 1] as number | null;
        host[i] = v === null ? null : v / (HOST_SCALES[i] ?? 1);
      }
      yield {
        receivedAt: r[0] as number,
        host,
        devices: (r[HOST_COLUMNS.length + 1] as Uint8Array | null) ?? null,
      };
    }
  };
}

/**
 * One host series of one node's raw rows in [from, to), ascending, scaled back: a history read
 * needs one column, and materialising the other columns of every row was most of its cost.
 */
export function rawHostSeriesStatement(db: BetterSqlite3.Database) {
  const byColumn = new Map<number, BetterSqlite3.Statement>();
  return function hostSeries(
    nodeId: number,
    index: number,
    from: number,
    to: number,
    visit: (receivedAt: number, value: number) => void,
  ): void {
    let stmt = byColumn.get(index);
    if (!stmt) {
      const column = HOST_COLUMNS[index];
      if (column === undefined) throw new Error(`no host column ${index}`);
      stmt = db
        .prepare(
          `SELECT received_at, ${column} FROM metrics_raw WHERE node_id = ? AND received_at >= ?
             AND received_at < ? AND ${column} IS NOT NULL ORDER BY received_at`,
        )
        .raw(true);
      byColumn.set(index, stmt);
    }
    const scale = HOST_SCALES[index] ?? 1;
    for (const r of stmt.all(nodeId, from, to) as Array<[number, number]>) {
      visit(r[0], r[1] / scale);
    }
  };
}

/** One node's raw device blobs in [from, to), ascending, for device-series history reads. */
export function rawDeviceBlobsStatement(db: BetterSqlite3.Database) {
  const stmt = db
    .prepare(
      `SELECT received_at, devices FROM metrics_raw WHERE node_id = ? AND received_at >= ?
         AND received_at < ? AND devices IS NOT NULL ORDER BY received_at`,
    )
    .raw(true);
  return function deviceBlobs(nodeId: number, from: number, to: number) {
    return stmt.all(nodeId, from, to) as Array<[number, Uint8Array]>;
  };
}

/** Adds one raw row to a bucket record. Rows must come in receive order. */
export function foldRawRow(rec: RollupRecord, row: RawRow): void {
  row.host.forEach((v, i) => {
    if (v !== null) rec.host[i]?.add(v);
  });
  if (row.devices) {
    decodeDevices(row.devices, (kind, id, values) => {
      const d = rec.device(kind, id);
      values.forEach((v, i) => d.aggs[i]?.add(v));
    });
  }
}

/**
 * Node ids present in a table keyed by node first, found by seeking past each id in turn
 * (a loose index scan: one B-tree seek per node instead of reading every row).
 */
export function nodeIdsStatement(db: BetterSqlite3.Database) {
  const next = db
    .prepare('SELECT node_id FROM metrics_raw WHERE node_id > ? ORDER BY node_id LIMIT 1')
    .pluck();
  return function* nodeIds(): Generator<number> {
    let last = Number.MIN_SAFE_INTEGER;
    for (;;) {
      const id = next.get(last) as number | undefined;
      if (id === undefined) return;
      yield id;
      last = id;
    }
  };
}
