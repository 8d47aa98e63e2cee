import { describe, expect, it } from 'vitest';
import { rfc3339 } from '../../src/platform/time-format.js';

describe('rfc3339', () => {
  it.each([
    [Date.UTC(2026, 10, 8, 23, 45, 0), '2026-11-08T23:45:00Z'],
    [Date.UTC(2026, 0, 1, 0, 0, 59, 999), '2026-01-01T00:00:59Z'],
    [0, '1970-01-01T00:00:00Z'],
    [Date.UTC(10000, 0, 1), '+010000-01-01T00:00:00Z'],
  ])('formats %d as %s, dropping milliseconds', (ms, text) => {
    expect(rfc3339(ms)).toBe(text);
  });
});
