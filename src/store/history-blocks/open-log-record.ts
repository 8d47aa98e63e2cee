import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { ByteReader, ByteWriter } from '../sqlite/metrics-codec.js';

/**
 * Records of the open-block log (docs/ingest-disk-writes.md): what one accepted report adds to
 * the not-yet-sealed history, and, at the checkpoint cadence, the node's current projection.
 * Pure encoding; framing, checksums and files are in store/sqlite/open-log.ts.
 *
 * A sample keeps exactly what a `metrics_raw` row keeps (host metrics as stored integers, the
 * devices varint blob), so sealing it gives the same block as sealing the row would.
 */

export const SAMPLE = 1;
export const PROJECTION = 2;

export interface OpenSample {
  node: number;
  at: number;
  /** Stored (scaled) integers in HOST_COLUMNS order, null where the report had no value. */
  host: ReadonlyArray<number | null>;
  /** The raw devices blob (metrics-codec.ts encodeDevices). */
  devices: Uint8Array;
}

export interface OpenProjection {
  node: number;
  at: number;
  reportedAt: number;
  runtimeJson: string;
  smartJson: string | null;
  thermalJson: string | null;
  pressureJson: string | null;
}

export type OpenRecord =
  ({ type: typeof SAMPLE } & OpenSample) | ({ type: typeof PROJECTION } & OpenProjection);

export function encodeSample(s: OpenSample): Buffer {
  const w = new ByteWriter();
  w.varint(SAMPLE);
  w.varint(s.node);
  w.varint(s.at);
  const n = s.host.length;
  w.varint(n);
  // Presence bitmap, then only the present values: most reports have a few empty columns.
  for (let i = 0; i < n; i += 7) {
    let bits = 0;
    for (let b = 0; b < 7 && i + b < n; b++) if (s.host[i + b] !== null) bits |= 1 << b;
    w.varint(bits);
  }
  for (const v of s.host) if (v !== null) w.varint(v);
  w.varint(s.devices.length);
  const head = w.finish();
  return Buffer.concat([head, s.devices]);
}

/**
 * A projection is ~4 KB of JSON, mostly keys and repeated shapes; raw deflate makes it a
 * fraction of that, and only one in every 10–15 reports of a node carries one.
 */
export function encodeProjection(p: OpenProjection): Buffer {
  const w = new ByteWriter();
  w.varint(PROJECTION);
  w.varint(p.node);
  w.varint(p.at);
  w.varint(p.reportedAt);
  const body = deflateRawSync(
    Buffer.from(JSON.stringify([p.runtimeJson, p.smartJson, p.thermalJson, p.pressureJson])),
    { level: 1 },
  );
  return Buffer.concat([w.finish(), body]);
}

/** A record's type, node and time, read from its first bytes (nothing inflated or copied). */
export function recordHead(payload: Uint8Array): {
  type: typeof SAMPLE | typeof PROJECTION;
  node: number;
  at: number;
} {
  const r = new ByteReader(payload);
  const type = r.varint();
  if (type !== SAMPLE && type !== PROJECTION)
    throw new Error(`unknown open-log record type ${type}`);
  const node = r.varint();
  return { type, node, at: r.varint() };
}

export function decodeRecord(payload: Uint8Array): OpenRecord {
  const r = new ByteReader(payload);
  const type = r.varint();
  if (type === SAMPLE) {
    const node = r.varint();
    const at = r.varint();
    const n = r.varint();
    const present: boolean[] = new Array<boolean>(n);
    for (let i = 0; i < n; i += 7) {
      const bits = r.varint();
      for (let b = 0; b < 7 && i + b < n; b++) present[i + b] = (bits & (1 << b)) !== 0;
    }
    const host: Array<number | null> = new Array<number | null>(n);
    for (let i = 0; i < n; i++) host[i] = present[i] ? r.varint() : null;
    const len = r.varint();
    const devices = payload.subarray(r.pos, r.pos + len);
    if (devices.length !== len) throw new Error('truncated devices in open-log sample');
    return { type: SAMPLE, node, at, host, devices };
  }
  if (type === PROJECTION) {
    const node = r.varint();
    const at = r.varint();
    const reportedAt = r.varint();
    const [runtimeJson, smartJson, thermalJson, pressureJson] = JSON.parse(
      inflateRawSync(payload.subarray(r.pos)).toString('utf8'),
    ) as [string, string | null, string | null, string | null];
    return {
      type: PROJECTION,
      node,
      at,
      reportedAt,
      runtimeJson,
      smartJson,
      thermalJson,
      pressureJson,
    };
  }
  throw new Error(`unknown open-log record type ${type}`);
}
