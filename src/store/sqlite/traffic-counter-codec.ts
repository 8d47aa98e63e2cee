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
import { ByteReader, ByteWriter } from './metrics-codec.js';

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

/** A difference as a varint (magnitude × 4 + sign), else the value itself as a tagged float64. */
function writeValue(w: ByteWriter, v: number, prev: number): void {
  const d = v - prev;
  if (Number.isSafeInteger(d) && Math.abs(d) < SMALL) w.varint(Math.abs(d) * 4 + (d < 0 ? 1 : 0));
  else {
    w.varint(TAG_FLOAT);
    w.f64(v);
  }
}

function readValue(r: ByteReader, prev: number): number {
  const x = r.varint();
  if (x === TAG_FLOAT) return r.f64();
  const mag = Math.floor(x / 4);
  return x % 4 === 1 ? prev - mag : prev + mag;
}

/** Encodes samples (any order; each interface's kept in the order given) as sections. */
export function encodeCounters(samples: readonly CounterSampleRow[]): Buffer {
  const byIface = new Map<string, CounterSampleRow[]>();
  for (const s of samples) {
    const list = byIface.get(s.iface);
    if (list) list.push(s);
    else byIface.set(s.iface, [s]);
  }
  const w = new ByteWriter();
  for (const [iface, list] of byIface) {
    const name = Buffer.from(iface, 'utf8');
    w.varint(name.length);
    w.bytes(name);
    w.varint(list.length);
    let at = 0;
    let rx = 0;
    let tx = 0;
    for (const s of list) {
      writeValue(w, s.at, at);
      writeValue(w, s.rx, rx);
      writeValue(w, s.tx, tx);
      ({ at, rx, tx } = s);
    }
  }
  return w.finish();
}

/**
 * The samples of a blob, by interface then time. A sample stored twice (same interface and
 * time) is read once, the first stored: as `ON CONFLICT DO NOTHING` did for single rows.
 */
export function decodeCounters(data: Uint8Array): CounterSampleRow[] {
  const r = new ByteReader(data);
  const out: CounterSampleRow[] = [];
  while (!r.done) {
    const iface = r.text(r.varint());
    const count = r.varint();
    let at = 0;
    let rx = 0;
    let tx = 0;
    for (let i = 0; i < count; i++) {
      at = readValue(r, at);
      rx = readValue(r, rx);
      tx = readValue(r, tx);
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
