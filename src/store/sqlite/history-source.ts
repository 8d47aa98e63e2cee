import type BetterSqlite3 from 'better-sqlite3';
import { BlockView } from '../history-blocks/block-codec.js';
import type { DeviceKind } from '../ports.js';
import {
  HOST_KIND,
  MAX_BLOCK_SPAN_MS,
  blockToRows,
  storedDevices,
  storedRowsStatement,
  type StoredRow,
} from './history-blocks.js';
import { DEVICE_KIND_CODE, DEVICE_SCALES, HOST_COLUMNS, HOST_SCALES } from './metrics-codec.js';
import type { OpenSample } from '../history-blocks/open-log-record.js';
import type { OpenLogIndex } from './open-log-index.js';
import { sealMarks, unsealedFrom, type SealMarks } from './open-log-seal.js';

/** The open-block logs a reader merges (docs/ingest-disk-writes.md), when there are any. */
export interface OpenLogs {
  logs(): readonly OpenLogIndex[];
}

/** A log was rotated after this read's snapshot began: its sealed part is not in the snapshot. */
class RotatedMeanwhile extends Error {
  constructor() {
    super('an open-block log was rotated by a seal newer than this read; read again');
  }
}
const READ_ATTEMPTS = 3;

export interface Point {
  at: number;
  value: number;
}

/**
 * Reads one node's history from blocks and raw rows together. Each read runs in one read
 * transaction (one snapshot), so a seal committing meanwhile cannot show a point twice or not
 * at all. Only the requested columns of the blocks that overlap the range are decoded.
 */
/** One device's stored values in one report. */
export interface DeviceRow {
  at: number;
  id: number;
  values: number[];
}

export function historySource(db: BetterSqlite3.Database, open?: OpenLogs) {
  const blocks = db
    .prepare(
      `SELECT t_start, t_end, count, data FROM metrics_blocks
       WHERE node_id = ? AND t_start > ? AND t_start < ? AND t_end >= ? ORDER BY t_start`,
    )
    .raw(true);
  const rawColumn = new Map<number, BetterSqlite3.Statement>();
  const rawDevices = db
    .prepare(
      `SELECT received_at, devices FROM metrics_raw WHERE node_id = ? AND received_at >= ?
         AND received_at < ? AND devices IS NOT NULL ORDER BY received_at`,
    )
    .raw(true);
  const rawTimes = db
    .prepare(
      `SELECT received_at FROM metrics_raw WHERE node_id = ? AND received_at >= ?
         AND received_at < ? ORDER BY received_at`,
    )
    .pluck();
  const rawCount = db
    .prepare(
      'SELECT count(*) FROM metrics_raw WHERE node_id = ? AND received_at >= ? AND received_at < ?',
    )
    .pluck();
  const storedRows = storedRowsStatement(db);
  const firstBlock = db
    .prepare('SELECT min(t_start) FROM metrics_blocks WHERE node_id = ?')
    .pluck();
  const firstRaw = db.prepare('SELECT min(received_at) FROM metrics_raw WHERE node_id = ?').pluck();

  type BlockRow = [number, number, number, Uint8Array];
  const blocksIn = (nodeId: number, from: number, to: number): BlockRow[] =>
    blocks.all(nodeId, from - MAX_BLOCK_SPAN_MS, to, from) as BlockRow[];

  function hostColumn(index: number): BetterSqlite3.Statement {
    let stmt = rawColumn.get(index);
    if (!stmt) {
      const column = HOST_COLUMNS[index];
      if (column === undefined) throw new Error(`no host column ${index}`);
      stmt = db
        .prepare(
          `SELECT received_at, ${column} FROM metrics_raw WHERE node_id = ? AND received_at >= ?
             AND received_at < ? AND ${column} IS NOT NULL ORDER BY received_at`,
        )
        .raw(true);
      rawColumn.set(index, stmt);
    }
    return stmt;
  }

  const sealedMarks = db
    .prepare("SELECT name, watermark FROM metrics_jobs WHERE name LIKE 'open_log_seal%'")
    .raw(true);
  /** Each log followed by this read, with the marks its records count from (open-log-seal.ts). */
  let current: Array<{ log: OpenLogIndex; marks: SealMarks }> = [];

  /**
   * The watermarks are read first, in the snapshot, then the logs are brought up to date: a log
   * that starts after its watermark was rotated by a seal this snapshot does not see, and the
   * read is repeated.
   */
  function withLogs<T>(fn: () => T): T {
    current = [];
    if (open) {
      const marks = new Map(sealedMarks.all() as Array<[string, number]>);
      for (const log of open.logs()) {
        log.refresh();
        if (!log.header) continue;
        const sealed = sealMarks((name) => marks.get(name), log.header.shard);
        if (log.header.from > sealed.sealed) throw new RotatedMeanwhile();
        current.push({ log, marks: sealed });
      }
    }
    return fn();
  }

  /** Inside batch(): reads share its snapshot and the logs it brought up to date. */
  let batching = false;
  const snapshot = <T>(fn: () => T): T => {
    if (batching) return fn();
    for (let attempt = 1; ; attempt++) {
      try {
        return db.inTransaction ? withLogs(fn) : db.transaction(() => withLogs(fn))();
      } catch (err) {
        if (!(err instanceof RotatedMeanwhile) || attempt >= READ_ATTEMPTS) throw err;
      }
    }
  };

  /** A node's unsealed samples in [from, to) from every log of this read. */
  function openSamples(nodeId: number, from: number, to: number): OpenSample[] {
    const out: OpenSample[] = [];
    for (const c of current) {
      out.push(...c.log.samples(nodeId, Math.max(from, unsealedFrom(c.marks, nodeId)), to));
    }
    return out;
  }

  function openTimes(nodeId: number, from: number, to: number): number[] {
    const out: number[] = [];
    for (const c of current) {
      out.push(...c.log.times(nodeId, Math.max(from, unsealedFrom(c.marks, nodeId)), to));
    }
    return out;
  }

  /** Stable sort by time, only when the merge produced points out of order. */
  function ordered(points: Point[]): Point[] {
    for (let i = 1; i < points.length; i++) {
      if (points[i]!.at < points[i - 1]!.at) return points.sort((a, b) => a.at - b.at);
    }
    return points;
  }

  return {
    /**
     * Runs several reads (of many nodes) in one snapshot: the watermarks are read and the logs
     * refreshed once, not once per read (10,000 nodes' receipts at start: ~0.3 s of the HTTP
     * thread spent refreshing the same logs).
     */
    batch<T>(fn: () => T): T {
      if (batching) return fn();
      return snapshot(() => {
        batching = true;
        try {
          return fn();
        } finally {
          batching = false;
        }
      });
    },

    /** One host series in [from, to), ascending, unscaled. */
    hostSeries(nodeId: number, index: number, from: number, to: number): Point[] {
      const scale = HOST_SCALES[index] ?? 1;
      return snapshot(() => {
        const out: Point[] = [];
        for (const [, , , data] of blocksIn(nodeId, from, to)) {
          const view = new BlockView(data);
          const col = view.find(HOST_KIND, 0, index);
          if (col < 0) continue;
          const times = view.times();
          const values = view.values(col);
          for (let p = 0; p < times.length; p++) {
            const at = times[p]!;
            const v = values[p];
            if (at >= from && at < to && v !== null && v !== undefined) {
              out.push({ at, value: v / scale });
            }
          }
        }
        for (const r of hostColumn(index).all(nodeId, from, to) as Array<[number, number]>) {
          out.push({ at: r[0], value: r[1] / scale });
        }
        for (const smp of openSamples(nodeId, from, to)) {
          const v = smp.host[index];
          if (v !== null && v !== undefined) out.push({ at: smp.at, value: v / scale });
        }
        return ordered(out);
      });
    },

    /**
     * One value of one device kind in [from, to), ascending; several devices at one time come
     * in the order of their columns (raw rows: blob order).
     */
    deviceSeries(
      nodeId: number,
      kind: DeviceKind,
      index: number,
      ids: ReadonlySet<number> | undefined,
      from: number,
      to: number,
    ): Point[] {
      const code = DEVICE_KIND_CODE[kind];
      const scale = DEVICE_SCALES[kind][index] ?? 1;
      return snapshot(() => {
        const out: Point[] = [];
        for (const [, , , data] of blocksIn(nodeId, from, to)) {
          const view = new BlockView(data);
          const cols: Array<Array<number | null>> = [];
          view.keys.forEach((k, c) => {
            if (k.kind === code && k.index === index && (!ids || ids.has(k.id))) {
              cols.push(view.values(c));
            }
          });
          if (cols.length === 0) continue;
          const times = view.times();
          for (let p = 0; p < times.length; p++) {
            const at = times[p]!;
            if (at < from || at >= to) continue;
            for (const col of cols) {
              const v = col[p];
              if (v !== null && v !== undefined) out.push({ at, value: v / scale });
            }
          }
        }
        const raw = rawDevices.all(nodeId, from, to) as Array<[number, Uint8Array]>;
        for (const smp of openSamples(nodeId, from, to)) raw.push([smp.at, smp.devices]);
        for (const [at, blob] of raw) {
          for (const d of storedDevices(blob)) {
            if (d.kind !== code || (ids && !ids.has(d.id))) continue;
            const v = d.values[index];
            if (v !== undefined) out.push({ at, value: v / scale });
          }
        }
        return ordered(out);
      });
    },

    /**
     * Every device of one kind in [from, to), ascending, as stored: one entry per report and
     * device. Reads only that kind's columns of the blocks.
     */
    deviceRows(nodeId: number, kind: DeviceKind, from: number, to: number): DeviceRow[] {
      const code = DEVICE_KIND_CODE[kind];
      const width = DEVICE_SCALES[kind].length;
      return snapshot(() => {
        const out: DeviceRow[] = [];
        for (const [, , , data] of blocksIn(nodeId, from, to)) {
          const view = new BlockView(data);
          const devices = new Map<number, Array<Array<number | null>>>();
          view.keys.forEach((k, c) => {
            if (k.kind !== code || k.index >= width) return;
            let cols = devices.get(k.id);
            if (!cols) devices.set(k.id, (cols = []));
            cols[k.index] = view.values(c);
          });
          if (devices.size === 0) continue;
          const times = view.times();
          for (let p = 0; p < times.length; p++) {
            const at = times[p]!;
            if (at < from || at >= to) continue;
            for (const [id, cols] of devices) {
              if (cols[0]?.[p] === null) continue;
              const values: number[] = new Array<number>(width);
              for (let i = 0; i < width; i++) values[i] = cols[i]?.[p] ?? 0;
              out.push({ at, id, values });
            }
          }
        }
        const raw = rawDevices.all(nodeId, from, to) as Array<[number, Uint8Array]>;
        for (const smp of openSamples(nodeId, from, to)) raw.push([smp.at, smp.devices]);
        for (const [at, blob] of raw) {
          for (const d of storedDevices(blob)) {
            if (d.kind === code) out.push({ at, id: d.id, values: d.values });
          }
        }
        for (let i = 1; i < out.length; i++) {
          if (out[i]!.at < out[i - 1]!.at) return out.sort((a, b) => a.at - b.at);
        }
        return out;
      });
    },

    /** Every value of every report in [from, to), ascending, as stored. */
    rows(nodeId: number, from: number, to: number): StoredRow[] {
      return snapshot(() => {
        const out: StoredRow[] = [];
        for (const [, , , data] of blocksIn(nodeId, from, to)) {
          for (const row of blockToRows(new BlockView(data))) {
            if (row.at >= from && row.at < to) out.push(row);
          }
        }
        out.push(...storedRows(nodeId, from, to));
        for (const smp of openSamples(nodeId, from, to)) {
          out.push({ at: smp.at, host: [...smp.host], devices: storedDevices(smp.devices) });
        }
        for (let i = 1; i < out.length; i++) {
          if (out[i]!.at < out[i - 1]!.at) return out.sort((a, b) => a.at - b.at);
        }
        return out;
      });
    },

    /** Receive times of a node's reports in [from, to), ascending. */
    times(nodeId: number, from: number, to: number): number[] {
      return snapshot(() => {
        const out: number[] = [];
        for (const [, , , data] of blocksIn(nodeId, from, to)) {
          for (const at of new BlockView(data).times()) if (at >= from && at < to) out.push(at);
        }
        out.push(...(rawTimes.all(nodeId, from, to) as number[]), ...openTimes(nodeId, from, to));
        return out.sort((a, b) => a - b);
      });
    },

    /** How many reports a node has in [from, to); whole blocks count without decoding. */
    count(nodeId: number, from: number, to: number): number {
      return snapshot(() => {
        let n = (rawCount.get(nodeId, from, to) as number) + openTimes(nodeId, from, to).length;
        for (const [start, end, count, data] of blocksIn(nodeId, from, to)) {
          if (start >= from && end < to) n += count;
          else for (const at of new BlockView(data).times()) if (at >= from && at < to) n++;
        }
        return n;
      });
    },

    /** Oldest receive time the node has, in blocks or raw rows. */
    first(nodeId: number): number | undefined {
      return snapshot(() => {
        const b = firstBlock.get(nodeId) as number | null;
        const r = firstRaw.get(nodeId) as number | null;
        const o = openTimes(nodeId, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)[0] ?? null;
        const all = [b, r, o].filter((v): v is number => v !== null);
        return all.length === 0 ? undefined : Math.min(...all);
      });
    },
  };
}

export type HistorySource = ReturnType<typeof historySource>;
