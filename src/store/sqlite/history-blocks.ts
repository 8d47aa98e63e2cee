import type BetterSqlite3 from 'better-sqlite3';
import {
  BlockView,
  encodeBlock,
  type BlockData,
  type BlockSeries,
} from '../history-blocks/block-codec.js';
import type { DeviceKind } from '../ports.js';
import {
  ByteReader,
  ByteWriter,
  DEVICE_KIND_CODE,
  DEVICE_KIND_ORDER,
  DEVICE_SCALES,
  HOST_COLUMNS,
  HOST_SCALES,
} from './metrics-codec.js';
import { listNodeIds } from './raw-rows.js';
import type { RollupRecord } from './rollup-codec.js';

/**
 * Raw history as compressed per-node column blocks (issue 22, migration 0013).
 *
 * Accepted reports are first written to `metrics_raw` (one row each, clustered by node and
 * receive time): that table is the open block, so an acknowledged report is as durable as the
 * database's WAL and readable at once. The seal step (run with the rollup job) moves every row
 * of a closed seal window (default 5 minutes, aligned to the epoch) into one `metrics_blocks` row
 * per node and window, in the same transaction that deletes the rows, so every point is in
 * exactly one of the two tables at any snapshot. Readers merge both inside one read
 * transaction.
 *
 * Blocks keep the stored integers of the raw rows (scaled as in metrics-codec.ts), so a point
 * read back from a block is the same number the raw row gave.
 */

export const DEFAULT_SEAL_MS = 5 * 60_000;
/** A block never covers more than this, so a range read finds its blocks by t_start alone. */
export const MAX_BLOCK_SPAN_MS = 60 * 60_000;
/** A window is sealed this long after it ended: a report may commit up to 5 s after receipt. */
export const SEAL_GRACE_MS = 10_000;
/** Series kind of host metrics inside a block; device kinds use their DEVICE_KIND_CODE. */
export const HOST_KIND = 0;
export const DAY_MS = 86_400_000;
const NODES_PER_STEP = 25;

export function validSealMs(ms: number): boolean {
  return Number.isInteger(ms) && ms >= 60_000 && ms <= MAX_BLOCK_SPAN_MS && 86_400_000 % ms === 0;
}

const KIND_BY_CODE = new Map<number, DeviceKind>(
  DEVICE_KIND_ORDER.map((k) => [DEVICE_KIND_CODE[k], k]),
);

/** One report's values as stored (scaled integers), devices in blob order. */
export interface StoredRow {
  at: number;
  host: Array<number | null>;
  devices: Array<{ kind: number; id: number; values: number[] }>;
}

/** Parses a raw devices blob without unscaling. */
export function storedDevices(blob: Uint8Array | null): StoredRow['devices'] {
  const out: StoredRow['devices'] = [];
  if (!blob) return out;
  const r = new ByteReader(blob);
  for (const kind of DEVICE_KIND_ORDER) {
    if (r.done) break;
    const width = DEVICE_SCALES[kind].length;
    const count = r.varint();
    for (let k = 0; k < count; k++) {
      const id = r.varint();
      const values: number[] = new Array<number>(width);
      for (let i = 0; i < width; i++) values[i] = r.varint();
      out.push({ kind: DEVICE_KIND_CODE[kind], id, values });
    }
  }
  return out;
}

/**
 * A raw devices blob from stored (already scaled) values, as the writer lays it out: every kind
 * in DEVICE_KIND_ORDER with its count, devices of a kind in the order given. The inverse of
 * `storedDevices` up to the order of devices within a kind.
 */
export function encodeStoredDevices(devices: StoredRow['devices']): Buffer {
  const w = new ByteWriter();
  for (const kind of DEVICE_KIND_ORDER) {
    const code = DEVICE_KIND_CODE[kind];
    const width = DEVICE_SCALES[kind].length;
    const list = devices.filter((d) => d.kind === code);
    w.varint(list.length);
    for (const d of list) {
      w.varint(d.id);
      for (let i = 0; i < width; i++) w.varint(d.values[i] ?? 0);
    }
  }
  return w.finish();
}

/** Turns stored rows (ascending) into block columns: host series with any value, then devices. */
export function rowsToBlock(rows: readonly StoredRow[]): BlockData {
  const n = rows.length;
  const series: BlockSeries[] = [];
  for (let i = 0; i < HOST_COLUMNS.length; i++) {
    const values = rows.map((r) => r.host[i] ?? null);
    if (values.some((v) => v !== null)) {
      series.push({ key: { kind: HOST_KIND, id: 0, index: i }, values });
    }
  }
  const devices = new Map<string, BlockSeries[]>();
  rows.forEach((r, p) => {
    for (const d of r.devices) {
      const key = `${d.kind}:${d.id}`;
      let cols = devices.get(key);
      if (!cols) {
        cols = d.values.map((_, index) => ({
          key: { kind: d.kind, id: d.id, index },
          values: new Array<number | null>(n).fill(null),
        }));
        devices.set(key, cols);
      }
      d.values.forEach((v, index) => {
        const col = cols[index];
        if (col) (col.values as Array<number | null>)[p] = v;
      });
    }
  });
  for (const cols of devices.values()) series.push(...cols);
  return { times: rows.map((r) => r.at), series };
}

/** The rows of a block, devices in column order (first appearance in the block). */
export function blockToRows(view: BlockView): StoredRow[] {
  const times = view.times();
  const rows: StoredRow[] = times.map((at) => ({
    at,
    host: new Array<number | null>(HOST_COLUMNS.length).fill(null),
    devices: [],
  }));
  const open = new Map<string, Array<{ kind: number; id: number; values: number[] } | null>>();
  view.keys.forEach((key, c) => {
    const values = view.values(c);
    if (key.kind === HOST_KIND) {
      values.forEach((v, p) => {
        rows[p]!.host[key.index] = v;
      });
      return;
    }
    const dk = `${key.kind}:${key.id}`;
    let per = open.get(dk);
    if (!per) {
      per = new Array<{ kind: number; id: number; values: number[] } | null>(times.length).fill(
        null,
      );
      open.set(dk, per);
    }
    values.forEach((v, p) => {
      if (v === null) return;
      let d = per[p];
      if (!d) {
        d = { kind: key.kind, id: key.id, values: [] };
        per[p] = d;
        rows[p]!.devices.push(d);
      }
      d.values[key.index] = v;
    });
  });
  return rows;
}

/** Adds one stored row to a bucket record, unscaled. Rows must come in receive order. */
export function foldStoredRow(rec: RollupRecord, row: StoredRow): void {
  row.host.forEach((v, i) => {
    if (v !== null) rec.host[i]?.add(v / (HOST_SCALES[i] ?? 1));
  });
  for (const d of row.devices) {
    const kind = KIND_BY_CODE.get(d.kind);
    if (!kind) continue;
    const scales = DEVICE_SCALES[kind];
    const aggs = rec.device(kind, d.id).aggs;
    d.values.forEach((v, i) => aggs[i]?.add(v / (scales[i] ?? 1)));
  }
}

// ---- day accounting --------------------------------------------------------------------------

export function dayAccounting(db: BetterSqlite3.Database) {
  const add = db.prepare(
    `INSERT INTO metrics_block_days (day, bytes, points, blocks) VALUES (?, ?, ?, ?)
     ON CONFLICT (day) DO UPDATE SET bytes = bytes + excluded.bytes,
       points = points + excluded.points, blocks = blocks + excluded.blocks`,
  );
  return (tStart: number, bytes: number, points: number, blocks: number): void => {
    add.run(Math.floor(tStart / DAY_MS), bytes, points, blocks);
  };
}

// ---- seal ------------------------------------------------------------------------------------

const STORED_ROWS = `SELECT received_at, ${HOST_COLUMNS.join(', ')}, devices FROM metrics_raw
  WHERE node_id = ? AND received_at >= ? AND received_at < ? ORDER BY received_at`;

/** One node's raw rows in [from, to) as stored integers. */
export function storedRowsStatement(db: BetterSqlite3.Database) {
  const stmt = db.prepare(STORED_ROWS).raw(true);
  return (nodeId: number, from: number, to: number): StoredRow[] =>
    (stmt.all(nodeId, from, to) as unknown[][]).map((r) => ({
      at: r[0] as number,
      host: r.slice(1, HOST_COLUMNS.length + 1) as Array<number | null>,
      devices: storedDevices((r[HOST_COLUMNS.length + 1] as Uint8Array | null) ?? null),
    }));
}

export interface SealResult {
  blocks: number;
  points: number;
}

/**
 * Moves the raw rows of closed seal windows into blocks: everything received before
 * floor((now - grace) / sealMs) * sealMs, one block per node and window (a window that gets a
 * late row after sealing simply gains a second block). Yields between steps of a few nodes;
 * each step is one transaction, so a crash repeats at most that step's work.
 */
export function* sealTask(
  db: BetterSqlite3.Database,
  now: number,
  sealMs: number = DEFAULT_SEAL_MS,
): Generator<void, SealResult> {
  if (!validSealMs(sealMs)) throw new Error(`invalid seal interval ${sealMs} ms`);
  const boundary = Math.floor((now - SEAL_GRACE_MS) / sealMs) * sealMs;
  const rows = storedRowsStatement(db);
  const firstAt = db
    .prepare(
      'SELECT min(received_at) FROM metrics_raw WHERE node_id = ? AND received_at >= ? AND received_at < ?',
    )
    .pluck();
  const insert = db.prepare(
    'INSERT INTO metrics_blocks (node_id, t_start, t_end, count, data) VALUES (?, ?, ?, ?, ?)',
  );
  const remove = db.prepare('DELETE FROM metrics_raw WHERE node_id = ? AND received_at < ?');
  const account = dayAccounting(db);
  const result: SealResult = { blocks: 0, points: 0 };
  const nodes = yield* listNodeIds(db, 'metrics_raw');
  for (let i = 0; i < nodes.length; i += NODES_PER_STEP) {
    db.transaction(() => {
      for (const nodeId of nodes.slice(i, i + NODES_PER_STEP)) {
        let cursor = Number.MIN_SAFE_INTEGER;
        for (;;) {
          const first = firstAt.get(nodeId, cursor, boundary) as number | null;
          if (first === null || first === undefined) break;
          const window = Math.floor(first / sealMs) * sealMs;
          const end = Math.min(window + sealMs, boundary);
          const batch = rows(nodeId, first, end);
          if (batch.length > 0) {
            const data = encodeBlock(rowsToBlock(batch));
            const tStart = batch[0]!.at;
            insert.run(nodeId, tStart, batch.at(-1)!.at, batch.length, data);
            account(tStart, data.length, batch.length, 1);
            result.blocks++;
            result.points += batch.length;
          }
          cursor = end;
        }
        remove.run(nodeId, boundary);
      }
    })();
    yield;
  }
  return result;
}

/**
 * Seals every closed window at once (migration 0013): the seal task run to completion. Rows of
 * the window still open at `now` stay raw.
 */
export function sealAll(db: BetterSqlite3.Database, now: number, sealMs = DEFAULT_SEAL_MS) {
  const task = sealTask(db, now, sealMs);
  for (;;) {
    const r = task.next();
    if (r.done) return r.value;
  }
}
