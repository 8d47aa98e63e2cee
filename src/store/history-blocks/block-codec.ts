/**
 * Compressed column blocks of one node's raw history (issue 22). A block holds n points: their
 * timestamps and any number of series, each a column of n values (null where the series has no
 * value at that point). Pure: no SQL, no clock.
 *
 * Layout (all integers are unsigned LEB128 varints unless noted):
 *
 *   version (1 byte) · n · timestamps column · series count S
 *   · S directory entries (kind, id, index, column byte length) · S columns
 *
 * A column starts with a flags byte: bits 0-1 the mode, bit 2 set when a presence bitmap of
 * ceil(n/8) bytes follows (some values are null). Then the present values:
 *
 * - mode 0, delta: zigzag(first), then run-length tokens of zigzag(v[i] - v[i-1]);
 * - mode 1, delta of delta: zigzag(first), zigzag(first delta), then tokens of zigzag(dd);
 * - mode 2, XOR: the first value's 8 IEEE-754 bytes, then for each next value the XOR with the
 *   previous one as a header byte (leading zero bytes * 9 + trailing zero bytes) and the bytes
 *   between (Gorilla's idea at byte granularity): exact bits for any number.
 *
 * Integer modes take series whose values are all integers within ±2^49 (so every delta, delta
 * of delta, zigzag and token stays an exact double); the encoder tries both and keeps the
 * smaller. A token is 2(k-1) for a run of k zeros and 2z-1 for a non-zero z, so a steady series
 * costs about one byte per run. Timestamps are a column in mode 1 with no nulls.
 *
 * The directory lets a reader decode the timestamps and only the columns it asks for.
 */

export const BLOCK_VERSION = 1;

/** Which series a column holds: kind 0 is a host metric (id 0), others a device kind's code. */
export interface SeriesKey {
  kind: number;
  id: number;
  index: number;
}

export interface BlockSeries {
  key: SeriesKey;
  values: ReadonlyArray<number | null>;
}

export interface BlockData {
  times: readonly number[];
  series: readonly BlockSeries[];
}

const MODE_DELTA = 0;
const MODE_DOD = 1;
const MODE_XOR = 2;
const HAS_NULLS = 4;
/** Largest magnitude an integer-mode value may have (see the module comment). */
const INT_LIMIT = 2 ** 49;

// ---- bytes ---------------------------------------------------------------------------------

class Writer {
  buf = new Uint8Array(256);
  pos = 0;

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  /** Unsigned LEB128 of a non-negative integer up to 2^53. */
  varint(v: number): void {
    this.ensure(8);
    while (v >= 128) {
      this.buf[this.pos++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    this.buf[this.pos++] = v;
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** Appends what another writer holds. */
  append(w: Writer): void {
    this.bytes(w.buf.subarray(0, w.pos));
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}

/**
 * Scratch writers reused by every block (a seal encodes tens of thousands of columns; a fresh
 * writer and buffer per column and per candidate mode was a large share of the sealing thread's
 * allocations). Encoding is synchronous, so one set per thread is enough; each is reset before
 * use and only its bytes are copied out.
 */
const scratch = { a: new Writer(), b: new Writer(), columns: new Writer() };
const reset = (w: Writer): Writer => {
  w.pos = 0;
  // A merge of many blocks may have grown it; do not keep megabytes for the next small block.
  if (w.buf.length > 1 << 20) w.buf = new Uint8Array(256);
  return w;
};

class Reader {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  byte(): number {
    if (this.pos >= this.end) throw new Error('truncated history block');
    return this.buf[this.pos++]!;
  }

  varint(): number {
    let result = 0;
    let mul = 1;
    for (;;) {
      const b = this.byte();
      result += (b & 127) * mul;
      if (b < 128) return result;
      mul *= 128;
    }
  }
}

const zigzag = (v: number): number => (v >= 0 ? 2 * v : -2 * v - 1);
const unzigzag = (z: number): number => (z % 2 === 0 ? z / 2 : -(z + 1) / 2);

// ---- integer columns -------------------------------------------------------------------------

/** Writes zigzag values as run-length tokens (zeros in runs). */
function writeTokens(w: Writer, zs: readonly number[], from: number): void {
  let zeros = 0;
  for (let i = from; i < zs.length; i++) {
    const z = zs[i]!;
    if (z === 0) {
      zeros++;
      continue;
    }
    if (zeros > 0) {
      w.varint(2 * (zeros - 1));
      zeros = 0;
    }
    w.varint(2 * z - 1);
  }
  if (zeros > 0) w.varint(2 * (zeros - 1));
}

function readTokens(r: Reader, count: number, visit: (z: number) => void): void {
  let done = 0;
  while (done < count) {
    const t = r.varint();
    if (t % 2 === 0) {
      const run = t / 2 + 1;
      if (done + run > count) throw new Error('corrupt history block run');
      for (let k = 0; k < run; k++) visit(0);
      done += run;
    } else {
      visit((t + 1) / 2);
      done++;
    }
  }
}

function encodeInts(w: Writer, vs: readonly number[], mode: number): void {
  const m = vs.length;
  if (m === 0) return;
  w.varint(zigzag(vs[0]!));
  if (m === 1) return;
  const zs: number[] = new Array<number>(m);
  if (mode === MODE_DELTA) {
    for (let i = 1; i < m; i++) zs[i] = zigzag(vs[i]! - vs[i - 1]!);
    writeTokens(w, zs, 1);
    return;
  }
  const d1 = vs[1]! - vs[0]!;
  w.varint(zigzag(d1));
  let prev = d1;
  for (let i = 2; i < m; i++) {
    const d = vs[i]! - vs[i - 1]!;
    zs[i] = zigzag(d - prev);
    prev = d;
  }
  writeTokens(w, zs, 2);
}

function decodeInts(r: Reader, m: number, mode: number, out: number[]): void {
  if (m === 0) return;
  let v = unzigzag(r.varint());
  out.push(v);
  if (m === 1) return;
  if (mode === MODE_DELTA) {
    readTokens(r, m - 1, (z) => {
      v += unzigzag(z);
      out.push(v);
    });
    return;
  }
  let d = unzigzag(r.varint());
  v += d;
  out.push(v);
  readTokens(r, m - 2, (z) => {
    d += unzigzag(z);
    v += d;
    out.push(v);
  });
}

// ---- XOR columns -----------------------------------------------------------------------------

function encodeXor(w: Writer, vs: readonly number[]): void {
  if (vs.length === 0) return;
  const cur = new DataView(new ArrayBuffer(8));
  const prev = new Uint8Array(8);
  const bytes = new Uint8Array(cur.buffer);
  cur.setFloat64(0, vs[0]!);
  w.bytes(bytes);
  prev.set(bytes);
  const x = new Uint8Array(8);
  for (let i = 1; i < vs.length; i++) {
    cur.setFloat64(0, vs[i]!);
    for (let k = 0; k < 8; k++) x[k] = bytes[k]! ^ prev[k]!;
    prev.set(bytes);
    let lead = 0;
    while (lead < 8 && x[lead] === 0) lead++;
    let trail = 0;
    if (lead < 8) while (x[7 - trail] === 0) trail++;
    w.byte(lead * 9 + trail);
    w.bytes(x.subarray(lead, 8 - trail));
  }
}

function decodeXor(r: Reader, m: number, out: number[]): void {
  if (m === 0) return;
  const view = new DataView(new ArrayBuffer(8));
  const bytes = new Uint8Array(view.buffer);
  for (let k = 0; k < 8; k++) bytes[k] = r.byte();
  out.push(view.getFloat64(0));
  for (let i = 1; i < m; i++) {
    const h = r.byte();
    const lead = Math.floor(h / 9);
    const trail = h % 9;
    if (lead + trail > 8) throw new Error('corrupt history block xor header');
    for (let k = lead; k < 8 - trail; k++) bytes[k] = bytes[k]! ^ r.byte();
    out.push(view.getFloat64(0));
  }
}

// ---- columns ---------------------------------------------------------------------------------

const isIntValue = (v: number): boolean =>
  Number.isInteger(v) && Math.abs(v) <= INT_LIMIT && !Object.is(v, -0);

/** Appends one column (flags, presence bitmap, values) to w. */
function encodeColumn(w: Writer, values: ReadonlyArray<number | null>): void {
  const present: number[] = [];
  let nulls = false;
  for (const v of values) {
    if (v === null) nulls = true;
    else present.push(v);
  }
  let body: Writer;
  let mode: number;
  if (present.every(isIntValue)) {
    const a = reset(scratch.a);
    encodeInts(a, present, MODE_DELTA);
    const b = reset(scratch.b);
    encodeInts(b, present, MODE_DOD);
    [mode, body] = b.pos < a.pos ? [MODE_DOD, b] : [MODE_DELTA, a];
  } else {
    body = reset(scratch.a);
    encodeXor(body, present);
    mode = MODE_XOR;
  }
  w.byte(mode | (nulls ? HAS_NULLS : 0));
  if (nulls) {
    const bitmap = new Uint8Array(Math.ceil(values.length / 8));
    values.forEach((v, i) => {
      if (v !== null) bitmap[i >> 3]! |= 1 << (i & 7);
    });
    w.bytes(bitmap);
  }
  w.append(body);
}

function decodeColumn(
  buf: Uint8Array,
  start: number,
  end: number,
  n: number,
): Array<number | null> {
  const r = new Reader(buf, start, end);
  const flags = r.byte();
  const mode = flags & 3;
  let bitmap: Uint8Array | undefined;
  let m = n;
  if (flags & HAS_NULLS) {
    const len = Math.ceil(n / 8);
    if (r.pos + len > end) throw new Error('truncated history block bitmap');
    bitmap = buf.subarray(r.pos, r.pos + len);
    r.pos += len;
    m = 0;
    for (let i = 0; i < n; i++) if (bitmap[i >> 3]! & (1 << (i & 7))) m++;
  }
  const present: number[] = [];
  if (mode === MODE_XOR) decodeXor(r, m, present);
  else if (mode === MODE_DELTA || mode === MODE_DOD) decodeInts(r, m, mode, present);
  else throw new Error(`unknown history block column mode ${mode}`);
  if (!bitmap) return present;
  const out: Array<number | null> = new Array<number | null>(n);
  let k = 0;
  for (let i = 0; i < n; i++) out[i] = bitmap[i >> 3]! & (1 << (i & 7)) ? present[k++]! : null;
  return out;
}

// ---- blocks ----------------------------------------------------------------------------------

export function encodeBlock(block: BlockData): Uint8Array {
  const n = block.times.length;
  for (const t of block.times) {
    if (!isIntValue(t)) throw new Error(`block timestamps must be integers within ±2^49: ${t}`);
  }
  const w = new Writer();
  w.byte(BLOCK_VERSION);
  w.varint(n);
  const tw = reset(scratch.a);
  encodeInts(tw, block.times, MODE_DOD);
  w.varint(tw.pos);
  w.append(tw);
  // Every column goes into one scratch buffer; the directory needs their lengths first.
  const columns = reset(scratch.columns);
  const ends: number[] = [];
  for (const s of block.series) {
    if (s.values.length !== n) throw new Error('every series needs one value per timestamp');
    encodeColumn(columns, s.values);
    ends.push(columns.pos);
  }
  w.varint(block.series.length);
  block.series.forEach((s, i) => {
    w.varint(s.key.kind);
    w.varint(s.key.id);
    w.varint(s.key.index);
    w.varint(ends[i]! - (i === 0 ? 0 : ends[i - 1]!));
  });
  w.append(columns);
  return w.finish();
}

/**
 * A parsed block header: timestamps and the column directory; columns are decoded on request.
 */
export class BlockView {
  readonly count: number;
  readonly keys: SeriesKey[] = [];
  private readonly offsets: number[] = [];
  private readonly timesStart: number;
  private readonly timesEnd: number;
  private timesCache: number[] | undefined;

  constructor(private readonly buf: Uint8Array) {
    const r = new Reader(buf);
    const version = r.byte();
    if (version !== BLOCK_VERSION) throw new Error(`unknown history block version ${version}`);
    this.count = r.varint();
    const tlen = r.varint();
    this.timesStart = r.pos;
    this.timesEnd = r.pos + tlen;
    r.pos = this.timesEnd;
    const s = r.varint();
    const lengths: number[] = [];
    for (let i = 0; i < s; i++) {
      this.keys.push({ kind: r.varint(), id: r.varint(), index: r.varint() });
      lengths.push(r.varint());
    }
    let at = r.pos;
    for (const len of lengths) {
      this.offsets.push(at);
      at += len;
    }
    this.offsets.push(at);
    if (at > buf.length) throw new Error('truncated history block');
  }

  times(): number[] {
    if (!this.timesCache) {
      const out: number[] = [];
      decodeInts(new Reader(this.buf, this.timesStart, this.timesEnd), this.count, MODE_DOD, out);
      this.timesCache = out;
    }
    return this.timesCache;
  }

  /** Column position of a series, or -1. */
  find(kind: number, id: number, index: number): number {
    return this.keys.findIndex((k) => k.kind === kind && k.id === id && k.index === index);
  }

  values(column: number): Array<number | null> {
    const start = this.offsets[column];
    const end = this.offsets[column + 1];
    if (start === undefined || end === undefined) throw new Error(`no column ${column}`);
    return decodeColumn(this.buf, start, end, this.count);
  }
}

export function decodeBlock(blob: Uint8Array): BlockData {
  const view = new BlockView(blob);
  return {
    times: view.times(),
    series: view.keys.map((key, i) => ({ key, values: view.values(i) })),
  };
}

/**
 * One block holding the points of `blocks` one after the other (compaction): the timestamps
 * concatenated, every series of any block as one column, null where a block lacks it. Values
 * are copied, never recomputed, so each point decodes to the same bits. The caller passes
 * blocks in time order.
 */
export function mergeBlocks(blocks: readonly BlockData[]): BlockData {
  const times: number[] = [];
  const columns = new Map<string, { key: SeriesKey; values: Array<number | null> }>();
  const padTo = (values: Array<number | null>, length: number) => {
    while (values.length < length) values.push(null);
  };
  for (const block of blocks) {
    const offset = times.length;
    for (const t of block.times) times.push(t);
    for (const s of block.series) {
      const id = `${s.key.kind}:${s.key.id}:${s.key.index}`;
      let col = columns.get(id);
      if (!col) {
        col = { key: s.key, values: [] };
        columns.set(id, col);
      }
      padTo(col.values, offset);
      for (const v of s.values) col.values.push(v);
    }
  }
  return {
    times,
    series: [...columns.values()].map((col) => {
      padTo(col.values, times.length);
      return { key: col.key, values: col.values };
    }),
  };
}
