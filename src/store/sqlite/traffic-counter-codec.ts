/**
 * One node's interface counters of one minute, as a blob of `traffic_counter` (migration 0016;
 * docs/ingest-disk-writes.md, "Traffic counters by minute"). The table is keyed by
 * (minute, node), so a flush, which stores a minute of every node in ascending node order,
 * appends contiguous pages instead of rewriting one page per node and interface.
 *
 * A blob is a list of sections, each self-contained: the interface name, how many samples, then
 * each sample's time, rx and tx as a difference from the previous sample of the section (the
 * first from 0). A later flush with samples of the same minute appends its own sections, so
 * storing is a concatenation (`data || excluded.data`), never a decode.
 */

/** Width of a slot: counters are stored one row per node and minute of `received_at`. */
export const COUNTER_SLOT_MS = 60_000;

export const counterSlot = (at: number): number => Math.floor(at / COUNTER_SLOT_MS);

export interface CounterSampleRow {
  iface: string;
  at: number;
  rx: number;
  tx: number;
}

/**
 * Differences up to this magnitude are written as a varint (magnitude × 4 + sign); anything
 * else (a counter past 2^49, or not an integer) as a tagged float64, so every JS number
 * round-trips exactly.
 */
const SMALL = 2 ** 49;
const TAG_FLOAT = 2;

class Writer {
  private buf = Buffer.allocUnsafe(256);
  private len = 0;

  private room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + n));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }

  varint(v: number): void {
    this.room(10);
    while (v >= 128) {
      this.buf[this.len++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    this.buf[this.len++] = v;
  }

  value(v: number, prev: number): void {
    const d = v - prev;
    if (Number.isSafeInteger(d) && Math.abs(d) < SMALL) {
      this.varint(Math.abs(d) * 4 + (d < 0 ? 1 : 0));
      return;
    }
    this.varint(TAG_FLOAT);
    this.room(8);
    this.buf.writeDoubleLE(v, this.len);
    this.len += 8;
  }

  text(s: string): void {
    const bytes = Buffer.from(s, 'utf8');
    this.varint(bytes.length);
    this.room(bytes.length);
    bytes.copy(this.buf, this.len);
    this.len += bytes.length;
  }

  done(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.len));
  }
}

/** Encodes samples (any order; each interface's kept in the order given) as sections. */
export function encodeCounters(samples: readonly CounterSampleRow[]): Buffer {
  const byIface = new Map<string, CounterSampleRow[]>();
  for (const s of samples) {
    const list = byIface.get(s.iface);
    if (list) list.push(s);
    else byIface.set(s.iface, [s]);
  }
  const w = new Writer();
  for (const [iface, list] of byIface) {
    w.text(iface);
    w.varint(list.length);
    let at = 0;
    let rx = 0;
    let tx = 0;
    for (const s of list) {
      w.value(s.at, at);
      w.value(s.rx, rx);
      w.value(s.tx, tx);
      ({ at, rx, tx } = s);
    }
  }
  return w.done();
}

/**
 * The samples of a blob, by interface then time. A sample stored twice (same interface and
 * time) is read once, the first stored: as `ON CONFLICT DO NOTHING` did for single rows.
 */
export function decodeCounters(data: Uint8Array): CounterSampleRow[] {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let pos = 0;
  const varint = (): number => {
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = buf[pos++] as number;
      v += (b & 127) * scale;
      if (b < 128) return v;
      scale *= 128;
    }
  };
  const value = (prev: number): number => {
    const x = varint();
    if (x === TAG_FLOAT) {
      const v = buf.readDoubleLE(pos);
      pos += 8;
      return v;
    }
    const mag = Math.floor(x / 4);
    return x % 4 === 1 ? prev - mag : prev + mag;
  };
  const out: CounterSampleRow[] = [];
  while (pos < buf.length) {
    const n = varint();
    const iface = buf.toString('utf8', pos, pos + n);
    pos += n;
    const count = varint();
    let at = 0;
    let rx = 0;
    let tx = 0;
    for (let i = 0; i < count; i++) {
      at = value(at);
      rx = value(rx);
      tx = value(tx);
      out.push({ iface, at, rx, tx });
    }
  }
  // Stable: among equal (iface, at) the first stored comes first and is kept.
  out.sort((a, b) => (a.iface < b.iface ? -1 : a.iface > b.iface ? 1 : a.at - b.at));
  return out.filter((s, i) => {
    const p = out[i - 1];
    return !p || p.iface !== s.iface || p.at !== s.at;
  });
}
