/**
 * An interface's closed 5-minute facts waiting in `traffic_5m_held` (migration 0018) as one
 * blob: for each fact in bucket order, the bucket as a difference from the previous one (the
 * first from 0), then its seven figures. A value is a varint (value × 2) when it is an integer
 * from 0 to 2^49, else a tag and the float64 itself, so every JS number round-trips exactly.
 * Under 30 bytes a fact of a busy interface, against ~60 for a row of `traffic_5m`.
 */
import type { TrafficFactRow } from '../ports.js';
import { ByteReader, ByteWriter } from './metrics-codec.js';

const SMALL = 2 ** 49;
const TAG_FLOAT = 1;

function put(w: ByteWriter, v: number): void {
  if (Number.isSafeInteger(v) && v >= 0 && v < SMALL) w.varint(v * 2);
  else {
    w.varint(TAG_FLOAT);
    w.f64(v);
  }
}

function get(r: ByteReader): number {
  const x = r.varint();
  return x === TAG_FLOAT ? r.f64() : x / 2;
}

/** Encodes facts in ascending bucket order (one per bucket). */
export function encodeHeld(facts: readonly TrafficFactRow[]): Buffer {
  const w = new ByteWriter();
  let bucket = 0;
  for (const f of facts) {
    put(w, f.bucket - bucket);
    bucket = f.bucket;
    put(w, f.inBytes);
    put(w, f.outBytes);
    put(w, f.validIn);
    put(w, f.validOut);
    put(w, f.validMs);
    put(w, f.gapCount);
    put(w, f.resetCount);
  }
  return w.finish();
}

export function decodeHeld(data: Uint8Array): TrafficFactRow[] {
  const r = new ByteReader(data);
  const out: TrafficFactRow[] = [];
  let bucket = 0;
  while (!r.done) {
    bucket += get(r);
    out.push({
      bucket,
      inBytes: get(r),
      outBytes: get(r),
      validIn: get(r),
      validOut: get(r),
      validMs: get(r),
      gapCount: get(r),
      resetCount: get(r),
    });
  }
  return out;
}
