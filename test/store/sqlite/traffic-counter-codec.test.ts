import { describe, expect, it } from 'vitest';
import {
  decodeCounters,
  encodeCounters,
  type CounterSampleRow,
} from '../../../src/store/sqlite/traffic-counter-codec.js';

const T0 = Date.UTC(2026, 10, 24, 12);

/** A deterministic generator, so a failure repeats. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

const byIfaceThenTime = (list: CounterSampleRow[]) =>
  [...list].sort((a, b) => (a.iface < b.iface ? -1 : a.iface > b.iface ? 1 : a.at - b.at));

describe('traffic counter blobs (SQLite 0016)', () => {
  it('round-trips random samples, edge values included', () => {
    const edges = [0, 1, 2 ** 31, 2 ** 49 - 1, 2 ** 49, 2 ** 53 - 1, Number.MAX_SAFE_INTEGER];
    for (let seed = 1; seed <= 50; seed++) {
      const next = random(seed);
      const samples: CounterSampleRow[] = [];
      for (const iface of ['eth0', 'wg-ü', '']) {
        let at = T0 + Math.floor(next() * 60_000);
        for (let i = 0; i < 1 + Math.floor(next() * 30); i++) {
          at += 1 + Math.floor(next() * 5000);
          const pick = () =>
            next() < 0.2
              ? (edges[Math.floor(next() * edges.length)] as number)
              : Math.floor(next() * 2 ** (next() * 53));
          // Counters go down too (a reset), by any amount.
          samples.push({ iface, at, rx: pick(), tx: pick() });
        }
      }
      expect(decodeCounters(encodeCounters(samples))).toEqual(byIfaceThenTime(samples));
    }
  });

  it('reads concatenated blobs as one: a later flush appends its sections', () => {
    const a = [
      { iface: 'eth0', at: T0, rx: 10, tx: 0 },
      { iface: 'eth1', at: T0, rx: 0, tx: 0 },
    ];
    const b = [
      { iface: 'eth0', at: T0 + 3000, rx: 5, tx: 0 },
      { iface: 'eth0', at: T0 + 6000, rx: 5, tx: 7 },
    ];
    const joined = Buffer.concat([encodeCounters(a), encodeCounters(b)]);
    expect(decodeCounters(joined)).toEqual(byIfaceThenTime([...a, ...b]));
  });

  it('keeps the first stored of two samples at the same time, as a primary key did', () => {
    const first = { iface: 'eth0', at: T0, rx: 1, tx: 1 };
    const joined = Buffer.concat([encodeCounters([first]), encodeCounters([{ ...first, rx: 2 }])]);
    expect(decodeCounters(joined)).toEqual([first]);
  });

  it('takes under 12 bytes a sample every 3 s (a row per sample took about 40)', () => {
    const samples: CounterSampleRow[] = [];
    for (let i = 0; i < 20; i++) {
      for (const iface of ['eth0', 'eth1', 'docker0']) {
        samples.push({ iface, at: T0 + i * 3000, rx: 8e12 + i * 3_750_000, tx: 3e12 + i * 1e6 });
      }
    }
    expect(encodeCounters(samples).length).toBeLessThan(60 * 12);
  });
});
