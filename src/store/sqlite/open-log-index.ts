import { closeSync, existsSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import {
  PROJECTION,
  SAMPLE,
  decodeRecord,
  recordHead,
  type OpenProjection,
  type OpenSample,
} from '../history-blocks/open-log-record.js';
import {
  HEADER_BYTES,
  RECORD_FRAME_BYTES,
  decodeHeader,
  itemBytes,
  scanRecords,
  type OpenLogHeader,
} from './open-log.js';

/** Largest read per refresh step; records straddling it are read again with the next step. */
const READ_CHUNK = 4 * 1024 * 1024;
/**
 * Bytes one paced refresh step (`refreshStep`) indexes at full step size: ~5 ms of a quiet
 * core (a minute of one ingest thread's log, ~21 MB at 1,500 reports/s, took 55–100 ms).
 */
export const INDEX_STEP_BYTES = 1024 * 1024;

interface NodeEntries {
  offsets: number[];
  times: number[];
  /** File offset of the newest projection record, if any. */
  projection?: number;
}

/**
 * A reader's index of one open-block log (open-log.ts): for each node, where its records are in
 * the file and their receive times, so a history read of one node reads only that node's
 * records (by offset, from the page cache) instead of the whole open window. `refresh` follows
 * the file as its writer appends: it indexes the whole records added since the last call and
 * stops before a record still being written (short, or checksum not yet matching), which the
 * next call reads again. A file replaced by a rotation (other inode, or shorter) is indexed
 * from its start.
 */
export class OpenLogIndex {
  private fd: number | undefined;
  private inode = -1;
  private end = HEADER_BYTES;
  private nodes = new Map<number, NodeEntries>();
  private count = 0;
  header: OpenLogHeader | undefined;
  /** A version 2 file, whose syncs pad to a page (open-log.ts). */
  private padded = false;

  constructor(readonly path: string) {}

  /** Whole records indexed, and the bytes they end at. */
  get size(): { records: number; bytes: number } {
    return { records: this.count, bytes: this.fd === undefined ? 0 : this.end };
  }

  refresh(): void {
    while (!this.refreshStep(READ_CHUNK));
  }

  /**
   * `refresh` in pieces: indexes at most `maxBytes` more of the file (or the one whole record
   * there, if it is longer) and says whether the index has caught up, with the end of the file
   * or with a record still being written. For a reader on a thread shared with latency-bound
   * work (the rollup on an ingest thread): a minute of a log is tens of MB, whose indexing in
   * one call held the thread for hundreds of ms (docs/ingest-performance.md).
   */
  refreshStep(maxBytes: number): boolean {
    const size = this.open();
    let chunk = Math.min(READ_CHUNK, Math.max(RECORD_FRAME_BYTES, maxBytes));
    while (this.fd !== undefined && this.end < size) {
      const want = Math.min(chunk, size - this.end);
      const buf = Buffer.allocUnsafe(want);
      const got = readSync(this.fd, buf, 0, want, this.end);
      const padded = this.padded;
      const read = buf.subarray(0, got);
      const { records, end } = scanRecords(read, 0, { base: this.end, padded });
      for (const r of records) this.add(this.end + r.offset, r.payload);
      const item = itemBytes(read, this.end, padded) ?? 0;
      this.end += end;
      if (end > 0) return this.end >= size;
      // Nothing whole read: a record (or padding) longer than the chunk (read it whole), or
      // one still being written (the next call reads it again).
      if (got === want && want < size - this.end && want < item) {
        if (chunk >= READ_CHUNK) throw new Error(`record too large in ${this.path}`);
        chunk = Math.min(READ_CHUNK, item);
        continue;
      }
      if (want === READ_CHUNK && got === want) throw new Error(`record too large in ${this.path}`);
      return true;
    }
    return true;
  }

  /** Opens the file (again after a rotation) and returns its size; closed when it is missing. */
  private open(): number {
    if (!existsSync(this.path)) {
      this.reset();
      return 0;
    }
    const ino = statSync(this.path).ino;
    if (this.fd === undefined || ino !== this.inode) {
      this.reset();
      this.fd = openSync(this.path, 'r');
      this.inode = fstatSync(this.fd).ino;
      const head = Buffer.alloc(HEADER_BYTES);
      if (readSync(this.fd, head, 0, HEADER_BYTES, 0) < HEADER_BYTES) {
        this.reset();
        return 0;
      }
      const decoded = decodeHeader(head);
      if (!decoded) throw new Error(`${this.path} is not a Dash open-block log`);
      const { padded, ...header } = decoded;
      this.header = header;
      this.padded = padded;
    }
    const size = fstatSync(this.fd).size;
    if (size < this.end) {
      // Cut below what was indexed: only a rotation does that; start over.
      this.reset();
      return this.open();
    }
    return size;
  }

  private add(offset: number, payload: Uint8Array): void {
    const r = recordHead(payload);
    const type = r.type;
    let e = this.nodes.get(r.node);
    if (!e) this.nodes.set(r.node, (e = { offsets: [], times: [] }));
    if (type === SAMPLE) {
      e.offsets.push(offset);
      e.times.push(r.at);
      this.count++;
    } else if (type === PROJECTION) {
      e.projection = offset;
    }
  }

  private read(offset: number): ReturnType<typeof decodeRecord> {
    const fd = this.fd;
    if (fd === undefined) throw new Error('open log index read before refresh');
    const frame = Buffer.alloc(8);
    readSync(fd, frame, 0, 8, offset);
    const len = frame.readUInt32LE(0);
    const payload = Buffer.alloc(len);
    readSync(fd, payload, 0, len, offset + 8);
    return decodeRecord(payload);
  }

  /** Node ids with records, ascending. */
  nodeIds(): number[] {
    return [...this.nodes.keys()].sort((a, b) => a - b);
  }

  /** One node's samples received in [from, to), in receive order. */
  samples(node: number, from: number, to: number): OpenSample[] {
    const e = this.nodes.get(node);
    if (!e) return [];
    const out: OpenSample[] = [];
    for (let i = 0; i < e.times.length; i++) {
      const at = e.times[i]!;
      if (at < from || at >= to) continue;
      const r = this.read(e.offsets[i]!);
      if (r.type === SAMPLE) out.push(r);
    }
    return out.sort((a, b) => a.at - b.at);
  }

  /** Receive times of one node's samples in [from, to), ascending, without reading them. */
  times(node: number, from: number, to: number): number[] {
    const e = this.nodes.get(node);
    if (!e) return [];
    return e.times.filter((at) => at >= from && at < to).sort((a, b) => a - b);
  }

  /** The newest projection a node has in this log. */
  projection(node: number): OpenProjection | undefined {
    const offset = this.nodes.get(node)?.projection;
    if (offset === undefined) return undefined;
    const r = this.read(offset);
    return r.type === PROJECTION ? r : undefined;
  }

  close(): void {
    this.reset();
  }

  private reset(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.inode = -1;
    this.end = HEADER_BYTES;
    this.nodes = new Map();
    this.count = 0;
    this.header = undefined;
    this.padded = false;
  }
}
