import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { ByteReader, ByteWriter } from '../sqlite/metrics-codec.js';
import { PROJECTION_DICTIONARY, projectionDictionary } from './projection-dictionary.js';

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
/**
 * The tag projections are written with since preset dictionaries: a PROJECTION record read
 * back, with its four JSON texts deflated against a dictionary (projection-dictionary.ts) it
 * names. Tag 2 records (the texts as one JSON array, deflated alone) are still read.
 */
const PROJECTION_PACKED = 3;
/** Deflate level of packed projections: with the dictionary, as fast as level 1 was without. */
const PROJECTION_LEVEL = 6;

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
 * A projection is ~4 KB of JSON, mostly keys and repeated shapes; raw deflate against a preset
 * dictionary of those keys makes it under a quarter of that, and only one in every 10–15
 * reports of a node carries one. Layout after the head: the dictionary's id, which of the
 * optional texts are present (bits: smart, thermal, pressure), the UTF-8 lengths of all texts but
 * the last, then the texts concatenated and deflated (no JSON escaping of their quotes).
 */
export function encodeProjection(p: OpenProjection): Buffer {
  const w = new ByteWriter();
  w.varint(PROJECTION_PACKED);
  w.varint(p.node);
  w.varint(p.at);
  w.varint(p.reportedAt);
  w.varint(PROJECTION_DICTIONARY);
  const optional = [p.smartJson, p.thermalJson, p.pressureJson];
  w.varint(optional.reduce((bits, t, i) => (t === null ? bits : bits | (1 << i)), 0));
  const texts = [p.runtimeJson, ...optional.filter((t): t is string => t !== null)].map((t) =>
    Buffer.from(t),
  );
  for (let i = 0; i < texts.length - 1; i++) w.varint(texts[i]!.length);
  const body = deflateRawSync(Buffer.concat(texts), {
    level: PROJECTION_LEVEL,
    dictionary: projectionDictionary(PROJECTION_DICTIONARY),
  });
  return Buffer.concat([w.finish(), body]);
}

type ProjectionTexts = [string, string | null, string | null, string | null];

function decodePacked(r: ByteReader, payload: Uint8Array): ProjectionTexts {
  const dictionary = projectionDictionary(r.varint());
  const present = r.varint();
  const n = 1 + [0, 1, 2].filter((i) => (present & (1 << i)) !== 0).length;
  const lengths: number[] = [];
  for (let i = 0; i < n - 1; i++) lengths.push(r.varint());
  const all = inflateRawSync(payload.subarray(r.pos), { dictionary });
  const texts: string[] = [];
  let pos = 0;
  for (const len of lengths) {
    texts.push(all.toString('utf8', pos, pos + len));
    pos += len;
  }
  texts.push(all.toString('utf8', pos));
  let next = 1;
  const optional = (i: number) => ((present & (1 << i)) !== 0 ? texts[next++]! : null);
  return [texts[0]!, optional(0), optional(1), optional(2)];
}

/** A record's type, node and time, read from its first bytes (nothing inflated or copied). */
export function recordHead(payload: Uint8Array): {
  type: typeof SAMPLE | typeof PROJECTION;
  node: number;
  at: number;
} {
  const r = new ByteReader(payload);
  const tag = r.varint();
  if (tag !== SAMPLE && tag !== PROJECTION && tag !== PROJECTION_PACKED)
    throw new Error(`unknown open-log record type ${tag}`);
  const node = r.varint();
  return { type: tag === SAMPLE ? SAMPLE : PROJECTION, node, at: r.varint() };
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
  if (type === PROJECTION || type === PROJECTION_PACKED) {
    const node = r.varint();
    const at = r.varint();
    const reportedAt = r.varint();
    const [runtimeJson, smartJson, thermalJson, pressureJson] =
      type === PROJECTION_PACKED
        ? decodePacked(r, payload)
        : (JSON.parse(inflateRawSync(payload.subarray(r.pos)).toString('utf8')) as ProjectionTexts);
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
