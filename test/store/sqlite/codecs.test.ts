import { describe, expect, it } from 'vitest';
import {
  ByteReader,
  ByteWriter,
  decodeDevices,
  encodeDevices,
  toStored,
} from '../../../src/store/sqlite/metrics-codec.js';
import {
  Agg,
  RollupRecord,
  bucketOfRollupId,
  decodeRollup,
  decodeRollupHost,
  encodeRollup,
  rollupId,
} from '../../../src/store/sqlite/rollup-codec.js';

describe('metrics codecs', () => {
  it('round-trips varints up to the int64 range', () => {
    const values = [0, 1, 127, 128, 300, 2 ** 32 + 5, 918_273_645_123, 2 ** 53 - 1, 2 ** 62];
    const w = new ByteWriter();
    for (const v of values) w.varint(v);
    const r = new ByteReader(w.finish());
    expect(values.map(() => r.varint())).toEqual(values);
    expect(r.done).toBe(true);
  });

  it('scales, rounds and clamps stored values', () => {
    expect(toStored(0.23456, 1e4)).toBe(2346);
    expect(toStored(-3, 1)).toBe(0);
    expect(toStored(2 ** 64, 1)).toBe(9.2e18);
  });

  it('round-trips a devices blob with per-kind scales', () => {
    const blob = encodeDevices({
      iface: [{ id: 1, values: [918_273_645_123, 7, 125_000.4, 0] }],
      io: [{ id: 9, values: [13_653.33, 409_600, 3.33, 49.33, 52.67] }],
      usage: [{ id: 300, values: [87_000_000_000, 0.1757] }],
      temp: [{ id: 4, values: [41.85] }],
    });
    const seen: Array<[string, number, number[]]> = [];
    decodeDevices(blob, (kind, id, values) => seen.push([kind, id, values]));
    expect(seen).toEqual([
      ['iface', 1, [918_273_645_123, 7, 125_000, 0]],
      ['io', 9, [13_653, 409_600, 3.33, 49.33, 52.67]],
      ['usage', 300, [87_000_000_000, 0.1757]],
      ['temp', 4, [41.9]],
    ]);
    expect(blob.length).toBeLessThanOrEqual(41);
  });

  it('round-trips rollup records and merges them like one longer bucket', () => {
    const a = new RollupRecord();
    const b = new RollupRecord();
    [0.1, 0.5].forEach((v) => a.host[0]!.add(v));
    [0.9].forEach((v) => b.host[0]!.add(v));
    a.device('io', 3).aggs[0]!.add(100);
    b.device('io', 3).aggs[0]!.add(300);
    const merged = decodeRollup(encodeRollup(a));
    merged.merge(decodeRollup(encodeRollup(b)));
    const cpu = merged.host[0]!;
    expect([cpu.count, cpu.min, cpu.max, cpu.last]).toEqual([3, 0.1, 0.9, 0.9]);
    expect(cpu.value('avg')).toBeCloseTo(0.5, 12);
    expect(merged.device('io', 3).aggs[0]!.value('avg')).toBe(200);
    expect(merged.host[5]!.count).toBe(0);
  });

  it('reads one host series without decoding the rest, identically to the full decode', () => {
    const rec = new RollupRecord();
    rec.host[0]!.add(0.25);
    [3, 7].forEach((v) => rec.host[4]!.add(v));
    rec.device('io', 3).aggs[0]!.add(100);
    const blob = encodeRollup(rec);
    const full = decodeRollup(blob);
    for (const i of [0, 1, 4, rec.host.length - 1]) {
      const one = decodeRollupHost(blob, i)!;
      expect([one.count, one.min, one.max, one.last, one.value('avg')]).toEqual([
        full.host[i]!.count,
        full.host[i]!.min,
        full.host[i]!.max,
        full.host[i]!.last,
        full.host[i]!.value('avg'),
      ]);
    }
    expect(decodeRollupHost(blob, 4)!.value('avg')).toBe(5);
    expect(decodeRollupHost(blob, rec.host.length)).toBeUndefined();
  });

  it('an empty aggregate merges as nothing', () => {
    const a = new Agg();
    a.add(2);
    a.merge(new Agg());
    expect([a.count, a.last]).toEqual([1, 2]);
  });

  it('keys rollups by node then bucket', () => {
    const at = Date.UTC(2026, 10, 21, 12, 15);
    const id = rollupId(42, at, 900_000);
    expect(bucketOfRollupId(id, 900_000)).toBe(at);
    expect(rollupId(42, at + 900_000, 900_000)).toBe(id + 1);
    expect(rollupId(43, 0, 900_000)).toBeGreaterThan(id);
  });
});
