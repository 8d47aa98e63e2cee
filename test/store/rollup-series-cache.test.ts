import { describe, expect, it } from 'vitest';
import { Agg } from '../../src/store/sqlite/rollup-codec.js';
import {
  RollupSeriesCache,
  type AsyncSeriesLoader,
  type SeriesLoader,
} from '../../src/store/history/rollup-series-cache.js';

const B = 1000;

function agg(v: number): Agg {
  const a = new Agg();
  a.add(v);
  return a;
}

/** A loader over buckets 0..n-1 (bucket i holds value i; bucket 2 has two aggs), logging calls. */
function store(n = 100) {
  const calls: Array<[number, number]> = [];
  const load: SeriesLoader = (from, until, push) => {
    calls.push([from, until]);
    for (let s = from; s < until && s < n * B; s += B) {
      push(s, agg(s / B));
      if (s === 2 * B) push(s, agg(0.5));
    }
  };
  return { calls, load };
}

function read(
  cache: RollupSeriesCache,
  key: string,
  from: number,
  until: number,
  load: SeriesLoader,
) {
  const seen: Array<[number, number]> = [];
  cache.fold(key, from, until, load, (s, a) => seen.push([s, a.sum]));
  return seen;
}

describe('RollupSeriesCache', () => {
  it('loads only what it lacks and visits [from, until) in order, every agg of a bucket', () => {
    const cache = new RollupSeriesCache();
    const { calls, load } = store();
    expect(read(cache, 'k', 0, 4 * B, load)).toEqual([
      [0, 0],
      [B, 1],
      [2 * B, 2],
      [2 * B, 0.5],
      [3 * B, 3],
    ]);
    expect(read(cache, 'k', 2 * B, 6 * B, load)).toEqual([
      [2 * B, 2],
      [2 * B, 0.5],
      [3 * B, 3],
      [4 * B, 4],
      [5 * B, 5],
    ]);
    expect(read(cache, 'k', B, 6 * B, load)).toHaveLength(6);
    expect(calls).toEqual([
      [0, 4 * B],
      [4 * B, 6 * B],
    ]);
  });

  it('starts over for a window older than cached, or a watermark that moved back', () => {
    const cache = new RollupSeriesCache();
    const { calls, load } = store();
    read(cache, 'k', 5 * B, 8 * B, load);
    expect(read(cache, 'k', 3 * B, 8 * B, load).map(([s]) => s / B)).toEqual([3, 4, 5, 6, 7]);
    expect(read(cache, 'k', 3 * B, 7 * B, load).map(([s]) => s / B)).toEqual([3, 4, 5, 6]);
    expect(calls).toEqual([
      [5 * B, 8 * B],
      [3 * B, 8 * B],
      [3 * B, 7 * B],
    ]);
  });

  it('keeps series apart by key and forgets the least recently used beyond its bound', () => {
    const cache = new RollupSeriesCache(2);
    const { calls, load } = store();
    read(cache, 'a', 0, B, load);
    read(cache, 'b', 0, B, load);
    read(cache, 'a', 0, B, load);
    read(cache, 'c', 0, B, load);
    read(cache, 'a', 0, B, load);
    read(cache, 'b', 0, B, load);
    expect(calls).toHaveLength(4);
  });

  it('drops buckets older than it keeps and reloads when they are asked for again', () => {
    const cache = new RollupSeriesCache(8, 10 * B);
    const { calls, load } = store();
    read(cache, 'k', 0, 5 * B, load);
    expect(read(cache, 'k', 10 * B, 20 * B, load)).toHaveLength(10);
    expect(read(cache, 'k', 0, 20 * B, load)).toHaveLength(21);
    expect(calls).toEqual([
      [0, 5 * B],
      [5 * B, 20 * B],
      [0, 20 * B],
    ]);
  });

  it('folds through an async loader the same way, loading only the new buckets', async () => {
    const cache = new RollupSeriesCache();
    const { calls, load } = store();
    const asyncLoad: AsyncSeriesLoader = async (from, until, push) => {
      await Promise.resolve();
      load(from, until, push);
    };
    const readAsync = async (from: number, until: number) => {
      const seen: Array<[number, number]> = [];
      await cache.foldAsync('k', from, until, asyncLoad, (s, a) => seen.push([s, a.sum]));
      return seen;
    };
    expect(await readAsync(0, 4 * B)).toEqual(read(new RollupSeriesCache(), 'k', 0, 4 * B, load));
    calls.length = 0;
    expect((await readAsync(B, 6 * B)).map(([s]) => s / B)).toEqual([1, 2, 2, 3, 4, 5]);
    expect(calls).toEqual([[4 * B, 6 * B]]);
  });

  it('keeps interleaved async reads apart: each sees its own window, none a duplicate', async () => {
    const cache = new RollupSeriesCache();
    const { calls, load } = store();
    const gates: Array<() => void> = [];
    const slowLoad: AsyncSeriesLoader = async (from, until, push) => {
      await new Promise<void>((resolve) => gates.push(resolve));
      load(from, until, push);
    };
    const starts = (until: number) => {
      const seen: number[] = [];
      return {
        seen,
        done: cache.foldAsync('k', 0, until, slowLoad, (s) => seen.push(s / B)),
      };
    };
    const a = starts(3 * B);
    const b = starts(5 * B);
    while (gates.length < 2) await Promise.resolve();
    gates[1]!();
    await b.done;
    gates[0]!();
    await a.done;
    expect(a.seen).toEqual([0, 1, 2, 2]);
    expect(b.seen).toEqual([0, 1, 2, 2, 3, 4]);
    // The wider of the two stays cached: a read up to it loads nothing more.
    const c = starts(5 * B);
    await c.done;
    expect(c.seen).toEqual(b.seen);
    // b's load ran first (its gate opened first); a's older end did not replace b's entry.
    expect(calls).toEqual([
      [0, 5 * B],
      [0, 3 * B],
    ]);
  });

  it('says where a fold would start loading: the cached end, or the start when it cannot serve', () => {
    const cache = new RollupSeriesCache();
    const { load } = store();
    expect(cache.loadsFrom('k', 0, 10 * B)).toBe(0);
    read(cache, 'k', 0, 10 * B, load);
    expect(cache.loadsFrom('k', 0, 12 * B)).toBe(10 * B);
    expect(cache.loadsFrom('k', 3 * B, 12 * B)).toBe(10 * B);
    // A wider window, or a watermark that moved back: everything loads again.
    expect(cache.loadsFrom('k', -2 * B, 12 * B)).toBe(-2 * B);
    expect(cache.loadsFrom('k', 0, 8 * B)).toBe(0);
    expect(cache.loadsFrom('other', 4 * B, 12 * B)).toBe(4 * B);
  });
});
