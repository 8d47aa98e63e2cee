import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BlockView,
  decodeBlock,
  encodeBlock,
  type BlockData,
} from '../../../src/store/history-blocks/block-codec.js';

/** Bit-exact comparison (distinguishes -0 from 0, unlike toEqual's Object.is on numbers only). */
function bits(v: number | null): string {
  if (v === null) return 'null';
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, v);
  return view.getBigUint64(0).toString(16);
}

const edgeInts = fc.constantFrom(
  0,
  1,
  -1,
  2 ** 49,
  -(2 ** 49),
  2 ** 49 + 1,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
  9.2e18,
  -0,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
);
const value = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.integer(),
  fc.maxSafeInteger(),
  edgeInts,
  fc.double({ noNaN: true }),
);

/** Timestamps: steady steps with jitter, long gaps, repeats and steps back. */
const times = fc
  .tuple(
    fc.integer({ min: 0, max: 2 ** 45 }),
    fc.array(
      fc.oneof(
        fc.integer({ min: 2900, max: 3100 }),
        fc.constant(0),
        fc.integer({ min: -5000, max: -1 }),
        fc.integer({ min: 86_400_000, max: 30 * 86_400_000 }),
      ),
      { maxLength: 150 },
    ),
  )
  .map(([t0, steps]) => {
    const out = [t0];
    for (const s of steps) out.push(out.at(-1)! + s);
    return out;
  });

const block: fc.Arbitrary<BlockData> = times.chain((ts) =>
  fc
    .array(
      fc.record({
        key: fc.record({
          kind: fc.integer({ min: 0, max: 4 }),
          id: fc.integer({ min: 0, max: 2 ** 31 }),
          index: fc.integer({ min: 0, max: 30 }),
        }),
        values: fc.oneof(
          fc.array(fc.option(value, { freq: 4 }), { minLength: ts.length, maxLength: ts.length }),
          fc.array(value, { minLength: ts.length, maxLength: ts.length }),
          // counters: steady growth
          fc
            .tuple(fc.integer({ min: 0, max: 2 ** 40 }), fc.integer({ min: 0, max: 10_000 }))
            .map(([v0, d]) => ts.map((_, i) => v0 + i * d)),
          fc.constant(ts.map(() => 0)),
        ),
      }),
      { maxLength: 12 },
    )
    .map((series) => ({ times: ts, series })),
);

describe('history block codec', () => {
  it('decode(encode(x)) = x, bit for bit, for random series', () => {
    fc.assert(
      fc.property(block, (b) => {
        const back = decodeBlock(encodeBlock(b));
        expect(back.times).toEqual(b.times);
        expect(back.series.map((s) => s.key)).toEqual(b.series.map((s) => s.key));
        back.series.forEach((s, i) => {
          expect(s.values.map(bits)).toEqual(b.series[i]!.values.map(bits));
        });
      }),
      { numRuns: 400 },
    );
  });

  it('decodes one column without the others', () => {
    fc.assert(
      fc.property(block, (b) => {
        const view = new BlockView(encodeBlock(b));
        expect(view.count).toBe(b.times.length);
        const i = b.series.length - 1;
        if (i < 0) return;
        expect(view.values(i).map(bits)).toEqual(b.series[i]!.values.map(bits));
      }),
    );
  });

  it('keeps a steady report small', () => {
    const n = 100;
    const ts = Array.from({ length: n }, (_, i) => 1.7e12 + i * 3000 + (i % 3) * 7);
    const b: BlockData = {
      times: ts,
      series: [
        { key: { kind: 0, id: 0, index: 0 }, values: ts.map((_, i) => 1200 + (i % 5) * 10) },
        { key: { kind: 0, id: 0, index: 1 }, values: ts.map(() => 0) },
        { key: { kind: 1, id: 7, index: 0 }, values: ts.map((_, i) => 5e9 + i * 30_000) },
      ],
    };
    const size = encodeBlock(b).length;
    expect(size).toBeLessThan(n * 4);
    expect(decodeBlock(encodeBlock(b))).toEqual(b);
  });

  it('rejects blocks it cannot read', () => {
    const blob = encodeBlock({ times: [1, 2], series: [] });
    expect(() => new BlockView(Uint8Array.of(9, ...blob.subarray(1)))).toThrow(/version/);
    expect(() => new BlockView(blob.subarray(0, 2))).toThrow(/truncated/);
    expect(() => encodeBlock({ times: [0.5], series: [] })).toThrow(/integers/);
    expect(() =>
      encodeBlock({ times: [1, 2], series: [{ key: { kind: 0, id: 0, index: 0 }, values: [1] }] }),
    ).toThrow(/one value per timestamp/);
  });
});
