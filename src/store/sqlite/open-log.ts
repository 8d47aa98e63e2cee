import {
  closeSync,
  existsSync,
  fdatasync,
  fdatasyncSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';

/**
 * The open-block log: an append-only file per ingest thread holding the records of reports not
 * yet sealed into blocks (docs/ingest-disk-writes.md). Appends go to the end of the file and one
 * fdatasync covers every append before it (group commit), so a batch costs the bytes of its
 * records rounded up to whole pages, where a SQLite commit rewrites a page per node touched.
 *
 * Layout: a 24-byte header (magic, format version, shard, the seal boundary the file starts
 * at), then records, each framed as u32 length, u32 CRC-32 of the payload, payload. A crash can
 * leave a torn last record (short, or with a wrong checksum); opening drops it and everything
 * after it. A record is only acknowledged after the fdatasync that follows its append, so a torn
 * record was never acknowledged.
 *
 * Version 2 pads each sync to a page: `sync` first writes zero bytes up to the next multiple of
 * PAGE_BYTES (file offset), so the next append starts on a fresh page. Without it, every
 * fdatasync left the tail page clean and the next append dirtied it again, so the kernel wrote
 * that page once per sync (~4 KiB per sync on top of the records); a hole instead of written
 * zeros costs more (the kernel zeroes the old tail page when the file is extended past it).
 * Padding is a zero length (never a record's: payloads are not empty) at least FRAME_BYTES
 * before a page boundary, followed by zero bytes up to that boundary; a batch that ends closer
 * to the boundary than that is not padded. Version 1 files (no padding) are still replayed.
 */

const MAGIC = 0x474c4f44; // "DOLG"
/** Version of new files; version 1 files (written before padding) are read as well. */
const VERSION = 2;
const FIRST_PADDED_VERSION = 2;
export const HEADER_BYTES = 24;
/** The page a sync pads to (the kernel's page and the file system's block on common setups). */
export const PAGE_BYTES = 4096;
const FRAME_BYTES = 8;
/** Length and checksum before each record's payload. */
export const RECORD_FRAME_BYTES = FRAME_BYTES;
/** Far above any record; a larger length can only be a torn or foreign file. */
const MAX_RECORD_BYTES = 16 * 1024 * 1024;

export interface OpenLogHeader {
  shard: number;
  /** Seal boundary when the file was started: records before it were sealed elsewhere. */
  from: number;
}

export function encodeHeader(h: OpenLogHeader): Buffer {
  const b = Buffer.alloc(HEADER_BYTES);
  b.writeUInt32LE(MAGIC, 0);
  b.writeUInt32LE(VERSION, 4);
  b.writeUInt32LE(h.shard, 8);
  b.writeUInt32LE(0, 12);
  b.writeDoubleLE(h.from, 16);
  return b;
}

export interface DecodedHeader extends OpenLogHeader {
  /** Whether syncs pad to a page in this file (version 2 on): see `scanRecords`. */
  padded: boolean;
}

export function decodeHeader(b: Uint8Array): DecodedHeader | undefined {
  if (b.length < HEADER_BYTES) return undefined;
  const buf = Buffer.from(b.buffer, b.byteOffset, HEADER_BYTES);
  const version = buf.readUInt32LE(4);
  if (buf.readUInt32LE(0) !== MAGIC || version < 1 || version > VERSION) return undefined;
  return {
    shard: buf.readUInt32LE(8),
    from: buf.readDoubleLE(16),
    padded: version >= FIRST_PADDED_VERSION,
  };
}

/**
 * Bytes of padding a sync writes at file offset `end`: up to the next page boundary, none when
 * the file ends on one or too close to one for a frame (the next append then shares that page).
 */
export function paddingAt(end: number): number {
  const gap = PAGE_BYTES - (end % PAGE_BYTES);
  return gap === PAGE_BYTES || gap < FRAME_BYTES ? 0 : gap;
}

/**
 * Bytes the item (a record, or padding in a padded file) starting `bytes` takes, read from its
 * length; undefined when fewer than a frame's bytes are there.
 */
export function itemBytes(bytes: Uint8Array, at: number, padded: boolean): number | undefined {
  if (bytes.length < FRAME_BYTES) return undefined;
  const len = Buffer.from(bytes.buffer, bytes.byteOffset, FRAME_BYTES).readUInt32LE(0);
  if (len === 0 && padded) return paddingAt(at) || FRAME_BYTES;
  return FRAME_BYTES + len;
}

/** Frames payloads for one append: length, checksum, bytes, for each. */
export function frameRecords(payloads: readonly Uint8Array[]): Buffer {
  let size = 0;
  for (const p of payloads) size += FRAME_BYTES + p.length;
  const out = Buffer.allocUnsafe(size);
  let pos = 0;
  for (const p of payloads) {
    out.writeUInt32LE(p.length, pos);
    out.writeUInt32LE(crc32(p), pos + 4);
    out.set(p, pos + FRAME_BYTES);
    pos += FRAME_BYTES + p.length;
  }
  return out;
}

export interface ScanResult {
  /** Offsets (from the start of `bytes`) and payloads of every whole record, in order. */
  records: Array<{ offset: number; payload: Uint8Array }>;
  /** Where the whole records end: the first torn byte, or the end of `bytes`. */
  end: number;
}

/** Where `bytes` are in the file: page boundaries are file offsets. */
export interface ScanLayout {
  /** File offset of `bytes[0]`. */
  base: number;
  /** A version 2 file: zero lengths are padding to a page boundary (see `paddingAt`). */
  padded: boolean;
}

const UNPADDED: ScanLayout = { base: 0, padded: false };

/**
 * Whole records of `bytes` from `start`; stops at the first short or damaged record, or at
 * padding that is short (the file ends inside it: a torn sync) or holds a non-zero byte.
 */
export function scanRecords(
  bytes: Uint8Array,
  start = 0,
  layout: ScanLayout = UNPADDED,
): ScanResult {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const records: ScanResult['records'] = [];
  let pos = start;
  while (pos + FRAME_BYTES <= bytes.length) {
    const len = view.getUint32(pos, true);
    if (len === 0 && layout.padded) {
      const pad = paddingAt(layout.base + pos);
      if (pad === 0 || pos + pad > bytes.length || !allZero(bytes, pos + 4, pos + pad)) break;
      pos += pad;
      continue;
    }
    if (len === 0 || len > MAX_RECORD_BYTES || pos + FRAME_BYTES + len > bytes.length) break;
    const payload = bytes.subarray(pos + FRAME_BYTES, pos + FRAME_BYTES + len);
    if (crc32(payload) !== view.getUint32(pos + 4, true)) break;
    records.push({ offset: pos, payload });
    pos += FRAME_BYTES + len;
  }
  return { records, end: pos };
}

const ZEROS = Buffer.alloc(PAGE_BYTES);

/** Whether bytes [from, to) are all zero (at most a page: padding). */
function allZero(bytes: Uint8Array, from: number, to: number): boolean {
  const part = Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from);
  return part.equals(ZEROS.subarray(0, to - from));
}

function readAll(fd: number): Buffer {
  const size = fstatSync(fd).size;
  const buf = Buffer.allocUnsafe(size);
  let got = 0;
  while (got < size) {
    const n = readSync(fd, buf, got, size - got, got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

function writeAll(fd: number, buf: Buffer, position: number): void {
  let done = 0;
  while (done < buf.length) done += writeSync(fd, buf, done, buf.length - done, position + done);
}

function syncDir(path: string): void {
  const fd = openSync(dirname(path), 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** What a log held when it was opened: its header and the payloads of its whole records. */
export interface Replayed {
  header: OpenLogHeader;
  payloads: Uint8Array[];
  /** Bytes cut from the tail (a torn record from a crash). */
  dropped: number;
}

/**
 * One writer's log file. Opening an existing file replays it (whole records only) and cuts a
 * torn tail, so later appends follow the last good record; a missing file is created with the
 * header given.
 */
export class OpenLogFile {
  private constructor(
    readonly path: string,
    private fd: number,
    private end: number,
    readonly replayed: Replayed,
    private start: number,
    /** Whether syncs pad to a page: not in a version 1 file, until its rotation. */
    private padded: boolean,
  ) {}

  /** The seal boundary the file starts at: every record in it is at or after it. */
  get from(): number {
    return this.start;
  }

  /** Boundary of a seal in progress: no sample may be stored before it any more. */
  private sealing = Number.NEGATIVE_INFINITY;

  /**
   * The earliest time a new sample may have: the file's boundary, or that of the seal in
   * progress (`sealingTo`). A sample received before a boundary whose node the seal has
   * already written would otherwise be dropped by the rotation.
   */
  get appendFrom(): number {
    return Math.max(this.start, this.sealing);
  }

  /** Marks a seal to `boundary` as started, until the rotation to it. */
  sealingTo(boundary: number): void {
    this.sealing = Math.max(this.sealing, boundary);
  }

  static open(path: string, fresh: OpenLogHeader): OpenLogFile {
    if (!existsSync(path)) {
      const fd = openSync(path, 'wx+', 0o600);
      writeSync(fd, encodeHeader(fresh), 0, HEADER_BYTES, 0);
      fdatasyncSync(fd);
      syncDir(path);
      return new OpenLogFile(
        path,
        fd,
        HEADER_BYTES,
        { header: fresh, payloads: [], dropped: 0 },
        fresh.from,
        true,
      );
    }
    const fd = openSync(path, 'r+');
    try {
      const bytes = readAll(fd);
      const decoded = decodeHeader(bytes);
      if (!decoded) throw new Error(`${path} is not a Dash open-block log`);
      const { padded, ...header } = decoded;
      const { records, end } = scanRecords(bytes, HEADER_BYTES, { base: 0, padded });
      if (end < bytes.length) {
        ftruncateSync(fd, end);
        fdatasyncSync(fd);
      }
      return new OpenLogFile(
        path,
        fd,
        end,
        { header, payloads: records.map((r) => r.payload), dropped: bytes.length - end },
        header.from,
        padded,
      );
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  get size(): number {
    return this.end;
  }

  /** Zero bytes the syncs of this writer have padded with, across rotations. */
  get padding(): number {
    return this.padBytes;
  }

  private padBytes = 0;

  /** Writes framed records at the end; durable only after the next `sync`. */
  append(payloads: readonly Uint8Array[]): void {
    if (payloads.length === 0) return;
    const buf = frameRecords(payloads);
    let done = 0;
    try {
      while (done < buf.length) {
        done += writeSync(this.fd, buf, done, buf.length - done, this.end + done);
      }
    } catch (err) {
      // A full disk: drop what part of the batch was written, so none of its records (answered
      // as not stored) is found by readers or a replay; the next append starts at the same end.
      try {
        ftruncateSync(this.fd, this.end);
      } catch {
        // The file keeps a torn tail, which readers skip and the next append overwrites.
      }
      throw err;
    }
    this.end += buf.length;
  }

  /**
   * fdatasync on a libuv thread: every append made before the call is on disk when it ends.
   * The file is first padded to a page (see the layout above), so the appends after the call
   * start on a page this sync does not write.
   */
  sync(done: (err: Error | null) => void): void {
    this.pad();
    fdatasync(this.fd, done);
  }

  syncNow(): void {
    this.pad();
    fdatasyncSync(this.fd);
  }

  /** Writes the padding up to the next page boundary (a version 2 file only). */
  private pad(): void {
    const n = this.padded ? paddingAt(this.end) : 0;
    if (n === 0) return;
    try {
      writeAll(this.fd, ZEROS.subarray(0, n), this.end);
    } catch {
      // A full disk: the records before are whole; the sync goes on unpadded (readers stop at
      // short padding, and the next append overwrites it).
      try {
        ftruncateSync(this.fd, this.end);
      } catch {
        // Left short: see above.
      }
      return;
    }
    this.end += n;
    this.padBytes += n;
  }

  /** A rotation in progress: its file beside this one, and how far this file is copied. */
  private next: { fd: number; from: number; copied: number; end: number } | undefined;

  /**
   * Starts replacing the file by one starting at seal boundary `from` (`<path>.next`, renamed
   * over this one by `rotate`). Its records are copied by `copyForRotation`, in steps the
   * caller may spread between appends, so the rotation's last step only copies what came since.
   */
  beginRotation(from: number): void {
    this.abandonRotation();
    const path = `${this.path}.next`;
    rmSync(path, { force: true });
    const fd = openSync(path, 'wx+', 0o600);
    try {
      writeAll(fd, encodeHeader({ shard: this.replayed.header.shard, from }), 0);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    this.next = { fd, from, copied: HEADER_BYTES, end: HEADER_BYTES };
  }

  /**
   * Copies the records `keep` accepts from up to `maxBytes` more of this file into the
   * rotation's file (not synced: `rotate` syncs it before the rename). Returns whether the copy
   * has caught up with the end of this file.
   */
  copyForRotation(keep: (payload: Uint8Array) => boolean, maxBytes = Infinity): boolean {
    const next = this.next;
    if (!next) throw new Error('copyForRotation before beginRotation');
    while (next.copied < this.end) {
      const want = Math.min(this.end - next.copied, Math.max(maxBytes, FRAME_BYTES));
      const buf = Buffer.allocUnsafe(want);
      let got = 0;
      while (got < want) {
        const n = readSync(this.fd, buf, got, want - got, next.copied + got);
        if (n === 0) break;
        got += n;
      }
      const layout = { base: next.copied, padded: this.padded };
      const { records, end } = scanRecords(buf.subarray(0, got), 0, layout);
      if (end === 0) {
        // One record (or padding) longer than the step: read exactly it.
        const item = itemBytes(buf.subarray(0, got), next.copied, this.padded) ?? FRAME_BYTES;
        if (got >= want && want < item) {
          maxBytes = item;
          continue;
        }
        throw new Error(`${this.path} has a damaged record at ${next.copied}`);
      }
      const kept = frameRecords(records.map((r) => r.payload).filter(keep));
      writeAll(next.fd, kept, next.end);
      next.end += kept.length;
      next.copied += end;
      if (maxBytes !== Infinity) break;
    }
    return next.copied >= this.end;
  }

  /**
   * Replaces the file by one starting at seal boundary `from` and holding only the records
   * `keep` accepts (those still open), synced and renamed over the old one, so a crash leaves
   * either file whole. Continues a rotation `beginRotation` started to the same boundary (copying
   * only what was appended since its last step). Call it with no `sync` in flight.
   */
  /**
   * Syncs what the rotation has copied so far on a libuv thread: `rotate` syncs the next file
   * again, on the calling thread, and then finds only what was copied since (a seal carries
   * megabytes of projections into it, whose write-back held the ingest thread).
   */
  syncRotationCopy(done: (err: Error | null) => void): void {
    if (!this.next) {
      done(null);
      return;
    }
    fdatasync(this.next.fd, done);
  }

  rotate(from: number, keep: (payload: Uint8Array) => boolean): void {
    fdatasyncSync(this.fd);
    if (this.next?.from !== from) this.beginRotation(from);
    this.copyForRotation(keep);
    const next = this.next!;
    try {
      // Padded as a sync pads: the first appends to it start on a page of their own.
      const pad = paddingAt(next.end);
      writeAll(next.fd, ZEROS.subarray(0, pad), next.end);
      next.end += pad;
      fdatasyncSync(next.fd);
      renameSync(`${this.path}.next`, this.path);
      syncDir(this.path);
    } catch (err) {
      this.abandonRotation();
      throw err;
    }
    this.next = undefined;
    closeSync(this.fd);
    this.fd = next.fd;
    this.end = next.end;
    this.start = from;
    this.padded = true;
  }

  private abandonRotation(): void {
    if (this.next) closeSync(this.next.fd);
    this.next = undefined;
  }

  close(): void {
    this.abandonRotation();
    closeSync(this.fd);
  }
}
