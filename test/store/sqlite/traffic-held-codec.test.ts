import { describe, expect, it } from 'vitest';
import { decodeHeld, encodeHeld } from '../../../src/store/sqlite/traffic-held-codec.js';

const T0 = Date.UTC(2026, 10, 24, 12);
const fact = (bucket: number, inBytes: number, extra: Partial<Record<string, number>> = {}) => ({
  bucket,
  inBytes,
  outBytes: 2 * inBytes,
  validIn: inBytes,
  validOut: 2 * inBytes,
  validMs: 300_000,
  gapCount: 0,
  resetCount: 0,
  ...extra,
});

describe('held traffic facts codec', () => {
  it('round-trips facts exactly, small, huge and fractional values alike', () => {
    const facts = [
      fact(T0, 375_000_000),
      fact(T0 + 300_000, 0, { resetCount: 1, validMs: 0 }),
      fact(T0 + 3_600_000, 2 ** 53, { gapCount: 1, validIn: 0.5, validOut: -3 }),
    ];
    expect(decodeHeld(encodeHeld(facts))).toEqual(facts);
    expect(decodeHeld(encodeHeld([]))).toEqual([]);
  });

  it('takes under 30 bytes a fact of a busy interface', () => {
    const hour = Array.from({ length: 12 }, (_, i) => fact(T0 + i * 300_000, 375_000_000 + i));
    expect(encodeHeld(hour).length).toBeLessThan(12 * 30);
  });
});
