import { describe, expect, it } from 'vitest';
import { NodeSecretIndex } from '../../../src/domain/nodes/secret-index.js';

describe('node secret index', () => {
  it('finds nodes by secret and forgets rotated and removed secrets at once', () => {
    const idx = new NodeSecretIndex();
    idx.load([{ id: 1, secretHash: NodeSecretIndex.hash('alpha-secret') }]);
    idx.set(2, 'beta-secret');
    expect(idx.lookup('alpha-secret')).toBe(1);
    expect(idx.lookup('beta-secret')).toBe(2);
    expect(idx.lookup('unknown')).toBeUndefined();
    idx.set(1, 'alpha-rotated');
    expect(idx.lookup('alpha-secret')).toBeUndefined();
    expect(idx.lookup('alpha-rotated')).toBe(1);
    idx.remove(2);
    expect(idx.lookup('beta-secret')).toBeUndefined();
    expect(idx.size).toBe(1);
  });
});
