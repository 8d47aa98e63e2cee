import { HOST_METRICS, type DeviceKind } from '../../protocol/history-metrics.js';
import { ByteReader, ByteWriter, DEVICE_KIND_ORDER, DEVICE_VALUE_COUNT } from './metrics-codec.js';

/**
 * count/sum/min/max/last of one series over a bucket. Keeping the count (not the average) lets
 * coarser buckets re-aggregate exactly: the 15-day view weights each 15-minute bucket by its
 * sample count.
 */
export class Agg {
  count = 0;
  sum = 0;
  min = Infinity;
  max = -Infinity;
  last = 0;

  /** Adds one sample; samples must arrive in receive order for `last` to be right. */
  add(v: number): void {
    this.count++;
    this.sum += v;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
    this.last = v;
  }

  /** Folds in a later bucket. */
  merge(o: Agg): void {
    if (o.count === 0) return;
    this.count += o.count;
    this.sum += o.sum;
    if (o.min < this.min) this.min = o.min;
    if (o.max > this.max) this.max = o.max;
    this.last = o.last;
  }

  value(agg: 'avg' | 'max' | 'min' | 'last'): number {
    switch (agg) {
      case 'avg':
        return this.sum / this.count;
      case 'max':
        return this.max;
      case 'min':
        return this.min;
      case 'last':
        return this.last;
    }
  }
}

export interface DeviceAggs {
  kind: DeviceKind;
  id: number;
  aggs: Agg[];
}

/** Every series of one node over one bucket. */
export class RollupRecord {
  readonly host: Agg[] = HOST_METRICS.map(() => new Agg());
  readonly devices = new Map<string, DeviceAggs>();

  device(kind: DeviceKind, id: number): DeviceAggs {
    const key = `${kind}:${id}`;
    let d = this.devices.get(key);
    if (!d) {
      d = { kind, id, aggs: Array.from({ length: DEVICE_VALUE_COUNT[kind] }, () => new Agg()) };
      this.devices.set(key, d);
    }
    return d;
  }

  /** Folds in the record of a later bucket. */
  merge(o: RollupRecord): void {
    o.host.forEach((a, i) => this.host[i]?.merge(a));
    for (const d of o.devices.values()) {
      const mine = this.device(d.kind, d.id);
      d.aggs.forEach((a, i) => mine.aggs[i]?.merge(a));
    }
  }
}

function writeAgg(w: ByteWriter, a: Agg): void {
  w.varint(a.count);
  if (a.count === 0) return;
  w.f64(a.sum);
  w.f64(a.min);
  w.f64(a.max);
  w.f64(a.last);
}

function readAgg(r: ByteReader): Agg {
  const a = new Agg();
  a.count = r.varint();
  if (a.count === 0) return a;
  a.sum = r.f64();
  a.min = r.f64();
  a.max = r.f64();
  a.last = r.f64();
  return a;
}

export function encodeRollup(rec: RollupRecord): Buffer {
  const w = new ByteWriter();
  w.varint(rec.host.length);
  for (const a of rec.host) writeAgg(w, a);
  for (const kind of DEVICE_KIND_ORDER) {
    const list = [...rec.devices.values()].filter((d) => d.kind === kind);
    w.varint(list.length);
    for (const d of list) {
      w.varint(d.id);
      for (const a of d.aggs) writeAgg(w, a);
    }
  }
  return w.finish();
}

/**
 * One host series of a rollup record, skipping the others without decoding them (history reads
 * of host metrics touch hundreds of buckets and need one aggregate from each).
 */
export function decodeRollupHost(blob: Uint8Array, index: number): Agg | undefined {
  const r = new ByteReader(blob);
  const hostCount = r.varint();
  if (index >= hostCount) return undefined;
  for (let i = 0; i < index; i++) if (r.varint() > 0) r.skip(32);
  return readAgg(r);
}

/**
 * Bytes at the head of a rollup record that always hold host series `index` (the host count,
 * then per series a count varint of at most 5 bytes and four f64s): a reader fetching only
 * that prefix (PostgreSQL: substring of the bytea) decodes it with decodeRollupHost.
 */
export function rollupHostPrefixBytes(index: number): number {
  return 5 + (index + 1) * (5 + 32);
}

export function decodeRollup(blob: Uint8Array): RollupRecord {
  const r = new ByteReader(blob);
  const rec = new RollupRecord();
  const hostCount = r.varint();
  for (let i = 0; i < hostCount; i++) {
    const a = readAgg(r);
    if (i < rec.host.length) rec.host[i] = a;
  }
  for (const kind of DEVICE_KIND_ORDER) {
    if (r.done) break;
    const count = r.varint();
    for (let k = 0; k < count; k++) {
      const d = rec.device(kind, r.varint());
      for (let i = 0; i < DEVICE_VALUE_COUNT[kind]; i++) d.aggs[i] = readAgg(r);
    }
  }
  return rec;
}

/** Rollup row id: node first, then bucket index, so one node's buckets are one rowid range. */
export const ROLLUP_NODE_SHIFT = 2 ** 24;

export function rollupId(nodeId: number, bucketStart: number, bucketMs: number): number {
  return nodeId * ROLLUP_NODE_SHIFT + Math.floor(bucketStart / bucketMs);
}

export function bucketOfRollupId(id: number, bucketMs: number): number {
  return (id % ROLLUP_NODE_SHIFT) * bucketMs;
}
