import { describe, expect, it } from 'vitest';
import { axisLabels, axisWidth, maxTicksFor, niceScale } from './chart-scale';

const MiB = 1024 ** 2;
const KiB = 1024;

/** Ticks of a scale, then their labels: what the y axis shows. */
const labelsOf = (min: number, max: number, kind: Parameters<typeof niceScale>[2], n = 5) =>
  axisLabels(kind, niceScale(min, max, kind, n).ticks);

describe('niceScale', () => {
  it('covers the data, starts at zero and stays within the tick budget', () => {
    for (const [lo, hi] of [
      [0.3, 0.97],
      [12, 13],
      [0, 1e9],
      [5 * MiB, 17.3 * MiB],
      [0, 3],
    ]) {
      const sc = niceScale(lo, hi, 'bytes', 5);
      expect(sc.min).toBeLessThanOrEqual(0);
      expect(sc.max).toBeGreaterThanOrEqual(hi!);
      expect(sc.ticks.length).toBeLessThanOrEqual(5);
      expect(sc.ticks.length).toBeGreaterThanOrEqual(2);
      expect(sc.ticks[0]).toBe(sc.min);
      expect(sc.ticks.at(-1)).toBe(sc.max);
    }
  });

  it('steps through binary units in round numbers of the unit (a week above 10 MiB/s)', () => {
    const sc = niceScale(0, 15.2 * MiB, 'rate', 5);
    expect(sc.step).toBe(4 * MiB);
    expect(axisLabels('rate', sc.ticks)).toEqual([
      '0 MiB/s',
      '4 MiB/s',
      '8 MiB/s',
      '12 MiB/s',
      '16 MiB/s',
    ]);
  });

  it('uses decimal steps when they are rounder in the unit shown', () => {
    expect(labelsOf(0, 700 * KiB, 'bytes')).toEqual([
      '0 KiB',
      '200 KiB',
      '400 KiB',
      '600 KiB',
      '800 KiB',
    ]);
    expect(labelsOf(0, 1.4 * MiB, 'bytes')).toEqual(['0.0 MiB', '0.5 MiB', '1.0 MiB', '1.5 MiB']);
  });

  it('never repeats a label on a narrow range', () => {
    for (const [kind, lo, hi] of [
      ['ratio', 0.001, 0.003],
      ['celsius', 41.2, 41.9],
      ['percent', 0.01, 0.02],
      ['load', 0.01, 0.04],
      ['bytes', 100.2 * MiB, 100.4 * MiB],
      ['rate', 0, 3],
    ] as const) {
      const labels = labelsOf(lo, hi, kind);
      expect(new Set(labels).size, `${kind} ${labels.join(' | ')}`).toBe(labels.length);
    }
  });

  it('keeps counts whole and temperatures off zero', () => {
    const counts = niceScale(0, 3, 'count', 10);
    expect(counts.ticks.every((t) => Number.isInteger(t))).toBe(true);
    expect(axisLabels('count', counts.ticks)).toEqual(['0', '1', '2', '3']);
    const temp = niceScale(41.2, 47.8, 'celsius', 5);
    expect(temp.min).toBe(40);
    expect(temp.max).toBe(48);
  });

  it('shows a flat or empty series on a small round range', () => {
    expect(niceScale(0, 0, 'ratio', 5).max).toBeCloseTo(0.01, 9);
    expect(niceScale(null, null, 'count', 5)).toMatchObject({ min: 0, max: 1 });
    expect(niceScale(7, 7, 'count', 5).max).toBeGreaterThanOrEqual(7);
  });

  it('shows ratios as percent with round steps', () => {
    expect(labelsOf(0, 0.93, 'ratio', 6)).toEqual(['0%', '20%', '40%', '60%', '80%', '100%']);
  });
});

describe('axisLabels', () => {
  it('uses the unit of the largest tick for all labels', () => {
    expect(axisLabels('bytes', [0, 512 * KiB, 1024 * KiB, 1536 * KiB])).toEqual([
      '0.0 MiB',
      '0.5 MiB',
      '1.0 MiB',
      '1.5 MiB',
    ]);
    expect(axisLabels('bytes', [0, 2 * 1024 ** 3])).toEqual(['0 GiB', '2 GiB']);
  });
});

describe('axisWidth', () => {
  it('is the widest label plus tick and gap, so the widest label is never clipped', () => {
    const measure = (t: string) => t.length * 7;
    expect(axisWidth(['0 MiB/s', '1000 MiB/s'], measure, 10)).toBe(Math.ceil(70 + 10 + 2));
    expect(axisWidth(['1.25 GiB/s'], measure, 10)).toBeGreaterThan(axisWidth(['1 B'], measure, 10));
  });
});

describe('maxTicksFor', () => {
  it('fits about one tick per 30 px, at least two', () => {
    expect(maxTicksFor(130)).toBe(4);
    expect(maxTicksFor(20)).toBe(2);
    expect(maxTicksFor(2000)).toBe(10);
  });
});
