import { describe, expect, it } from 'vitest';
import { ownedBody } from '../../src/workers/owned-body.js';

describe('ownedBody', () => {
  it('hands over a disposable body that fills its own allocation as it is', () => {
    const body = new Uint8Array([1, 2, 3]);
    expect(ownedBody(body, true)).toBe(body);
  });

  it('copies a slice of a shared buffer, or a body the caller keeps, to an exact-size buffer', () => {
    const pool = new Uint8Array([9, 1, 2, 3, 9]);
    const slice = pool.subarray(1, 4);
    for (const [body, disposable] of [
      [slice, true],
      [new Uint8Array([1, 2, 3]), false],
      [new Uint8Array([1, 2, 3]), undefined],
    ] as const) {
      const owned = ownedBody(body, disposable);
      expect(owned).not.toBe(body);
      expect(owned?.buffer).not.toBe(body.buffer);
      expect(owned?.byteLength).toBe(owned?.buffer.byteLength);
      expect([...(owned ?? [])]).toEqual([1, 2, 3]);
    }
  });

  it('leaves a missing body missing', () => {
    expect(ownedBody(undefined, true)).toBeUndefined();
  });
});
