import { DEVICE_KINDS, HOST_METRICS, type DeviceKind } from '../../protocol/history-metrics.js';

/**
 * Compact encodings of history values. Raw values are stored as scaled non-negative integers
 * (ratios to 1e-4, loads and PSI to 1/100, temperatures to 0.1 °C, bytes and rates to 1), which
 * SQLite and the varint blob keep in a few bytes each.
 */

/** Raw-table columns, aligned with HOST_METRICS. */
export const HOST_COLUMNS = [
  'cpu_usage_ratio',
  'cpu_load1',
  'cpu_load5',
  'cpu_load15',
  'cpu_temp_c',
  'mem_used',
  'mem_used_ratio',
  'proc_count',
  'net_recv_bps',
  'net_sent_bps',
  'conn_tcp',
  'conn_udp',
  'psi_cpu_some10',
  'psi_cpu_some60',
  'psi_cpu_some300',
  'psi_mem_some10',
  'psi_mem_some60',
  'psi_mem_some300',
  'psi_mem_full10',
  'psi_mem_full60',
  'psi_mem_full300',
  'psi_io_some10',
  'psi_io_some60',
  'psi_io_some300',
  'psi_io_full10',
  'psi_io_full60',
  'psi_io_full300',
  'cpu_iowait_ratio',
  'cpu_steal_ratio',
] as const satisfies { length: (typeof HOST_METRICS)['length'] };

const PSI = 100;
export const HOST_SCALES: readonly number[] = [
  1e4,
  100,
  100,
  100,
  10,
  1,
  1e4,
  1,
  1,
  1,
  1,
  1,
  ...Array.from({ length: 15 }, () => PSI),
  1e4,
  1e4,
];

export const DEVICE_KIND_ORDER: readonly DeviceKind[] = ['iface', 'io', 'usage', 'temp'];
export const DEVICE_KIND_CODE: Record<DeviceKind, number> = { iface: 1, io: 2, usage: 3, temp: 4 };
export const DEVICE_SCALES: Record<DeviceKind, readonly number[]> = {
  iface: [1, 1, 1, 1],
  io: [1, 1, 100, 100, 100],
  usage: [1, 1e4],
  temp: [10],
};

/** Largest value written as an integer; anything larger is clamped (int64 limit). */
const MAX_STORED = 9.2e18;

export function toStored(value: number, scale: number): number {
  const v = Math.round(value * scale);
  return v > MAX_STORED ? MAX_STORED : v < 0 ? 0 : v;
}

// ---- varint blob -------------------------------------------------------------------------

export class ByteWriter {
  private buf = Buffer.allocUnsafe(256);
  private pos = 0;

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** Unsigned LEB128 of a non-negative integer up to 2^63. */
  varint(v: number): void {
    this.ensure(10);
    while (v >= 128) {
      this.buf[this.pos++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    this.buf[this.pos++] = v;
  }

  f64(v: number): void {
    this.ensure(8);
    this.buf.writeDoubleLE(v, this.pos);
    this.pos += 8;
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  finish(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.pos));
  }
}

export class ByteReader {
  pos = 0;
  private view: DataView | undefined;
  constructor(private readonly buf: Uint8Array) {}

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  varint(): number {
    let result = 0;
    let mul = 1;
    for (;;) {
      const b = this.buf[this.pos++];
      if (b === undefined) throw new Error('truncated varint');
      result += (b & 127) * mul;
      if (b < 128) return result;
      mul *= 128;
    }
  }

  /** Little-endian double; one DataView per reader instead of a Buffer view per value. */
  f64(): number {
    this.view ??= new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  skip(bytes: number): void {
    this.pos += bytes;
  }

  /** The next `n` bytes as UTF-8 text. */
  text(n: number): string {
    const s = Buffer.from(this.buf.buffer, this.buf.byteOffset + this.pos, n).toString('utf8');
    this.pos += n;
    return s;
  }
}

/** A device's values in one report, already mapped to its dictionary id. */
export interface EncodedDevice {
  id: number;
  values: readonly number[];
}

/** Raw devices blob: for each kind in DEVICE_KIND_ORDER, a count then (id, scaled values...). */
export function encodeDevices(byKind: Record<DeviceKind, EncodedDevice[]>): Buffer {
  const w = new ByteWriter();
  for (const kind of DEVICE_KIND_ORDER) {
    const list = byKind[kind];
    const scales = DEVICE_SCALES[kind];
    w.varint(list.length);
    for (const d of list) {
      w.varint(d.id);
      for (let i = 0; i < scales.length; i++) w.varint(toStored(d.values[i] ?? 0, scales[i] ?? 1));
    }
  }
  return w.finish();
}

/** Calls `visit` for every device value in a raw blob, unscaled. */
export function decodeDevices(
  blob: Uint8Array,
  visit: (kind: DeviceKind, id: number, values: number[]) => void,
): void {
  const r = new ByteReader(blob);
  for (const kind of DEVICE_KIND_ORDER) {
    if (r.done) return;
    const scales = DEVICE_SCALES[kind];
    const count = r.varint();
    for (let k = 0; k < count; k++) {
      const id = r.varint();
      const values: number[] = new Array<number>(scales.length);
      for (let i = 0; i < scales.length; i++) values[i] = r.varint() / (scales[i] ?? 1);
      visit(kind, id, values);
    }
  }
}

export const DEVICE_VALUE_COUNT: Record<DeviceKind, number> = {
  iface: DEVICE_KINDS.iface.length,
  io: DEVICE_KINDS.io.length,
  usage: DEVICE_KINDS.usage.length,
  temp: DEVICE_KINDS.temp.length,
};
