import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeBlock,
  encodeBlock,
  mergeBlocks,
  type BlockData,
  type SeriesKey,
} from '../../../src/store/history-blocks/block-codec.js';

/** Bit-exact form of a value (tells -0 from 0 and keeps every double's bits). */
function bits(v: number | null): string {
  if (v === null) return 'null';
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, v);
  return view.getBigUint64(0).toString(16);
}

const keyName = (k: SeriesKey) => `${k.kind}:${k.id}:${k.index}`;

/** A small pool of series, so consecutive blocks share some and lack others. */
const key = fc.record({
  kind: fc.integer({ min: 0, max: 2 }),
  id: fc.integer({ min: 0, max: 3 }),
  index: fc.integer({ min: 0, max: 3 }),
});
const value = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.maxSafeInteger(),
  fc.constantFrom(-0, 2 ** 49 + 1, Number.MAX_VALUE, Number.MIN_VALUE),
  fc.double({ noNaN: true }),
);

/** One block of n points starting at t0, with unique series keys. */
const block = (t0: number): fc.Arbitrary<BlockData> =>
  fc.integer({ min: 1, max: 40 }).chain((n) =>
    fc
      .tuple(
        fc.array(fc.integer({ min: 1, max: 120_000 }), { minLength: n - 1, maxLength: n - 1 }),
        fc.uniqueArray(key, { selector: keyName, maxLength: 8 }),
      )
      .chain(([steps, keys]) =>
        fc
          .tuple(
            ...keys.map(() =>
              fc.array(fc.option(value, { freq: 5 }), { minLength: n, maxLength: n }),
            ),
          )
          .map((columns) => {
            const times = [t0];
            for (const s of steps) times.push(times.at(-1)! + s);
            return { times, series: keys.map((k, i) => ({ key: k, values: columns[i]! })) };
          }),
      ),
  );

/** Consecutive blocks: each starts after the previous one's last point. */
const blocks = fc
  .array(fc.integer({ min: 1, max: 600_000 }), { minLength: 1, maxLength: 6 })
  .chain((gaps) => {
    const start = 1.7e12;
    // Blocks are built one after the other from their own arbitraries; times shift after.
    return fc.tuple(...gaps.map(() => block(0))).map((bs) => {
      let t = start;
      return bs.map((b, i) => {
        const shifted = b.times.map((x) => x + t);
        t = shifted.at(-1)! + gaps[i]!;
        return { times: shifted, series: b.series };
      });
    });
  });

/** The concatenation, written out independently of mergeBlocks. */
function concatenation(bs: readonly BlockData[]) {
  const names: string[] = [];
  for (const b of bs)
    for (const s of b.series) if (!names.includes(keyName(s.key))) names.push(keyName(s.key));
  return {
    times: bs.flatMap((b) => b.times),
    series: names.map((name) => ({
      name,
      values: bs.flatMap((b) => {
        const s = b.series.find((x) => keyName(x.key) === name);
        return (s ? s.values : b.times.map(() => null)).map(bits);
      }),
    })),
  };
}

describe('merging history blocks (compaction)', () => {
  it('decode(merge(decoded blocks)) is their concatenation, bit for bit', () => {
    fc.assert(
      fc.property(blocks, (bs) => {
        const stored = bs.map((b) => decodeBlock(encodeBlock(b)));
        const merged = decodeBlock(encodeBlock(mergeBlocks(stored)));
        const want = concatenation(bs);
        expect(merged.times).toEqual(want.times);
        expect(
          merged.series.map((s) => ({ name: keyName(s.key), values: s.values.map(bits) })),
        ).toEqual(want.series);
      }),
      { numRuns: 300 },
    );
  });

  it('of one block is that block', () => {
    fc.assert(
      fc.property(block(1.7e12), (b) => {
        const back = decodeBlock(encodeBlock(mergeBlocks([b])));
        expect(back.times).toEqual(b.times);
        expect(back.series.map((s) => s.values.map(bits))).toEqual(
          b.series.map((s) => s.values.map(bits)),
        );
      }),
    );
  });

  it('pads a series that starts in a later block with nulls before it', () => {
    const a: BlockData = {
      times: [1, 2],
      series: [{ key: { kind: 0, id: 0, index: 0 }, values: [5, 6] }],
    };
    const b: BlockData = {
      times: [3],
      series: [{ key: { kind: 1, id: 2, index: 0 }, values: [7] }],
    };
    expect(mergeBlocks([a, b]).series.map((s) => s.values)).toEqual([
      [5, 6, null],
      [null, null, 7],
    ]);
  });
});
