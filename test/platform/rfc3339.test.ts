import { describe, expect, it } from 'vitest';
import { formatRfc3339Seconds, parseRfc3339 } from '../../src/platform/rfc3339.js';

describe('formatRfc3339Seconds', () => {
  it('writes UTC with second precision, truncating milliseconds, for any sequence of calls', () => {
    const t = Date.UTC(2026, 10, 21, 12, 0, 5, 999);
    expect(formatRfc3339Seconds(t)).toBe('2026-11-21T12:00:05Z');
    expect(formatRfc3339Seconds(t - 999)).toBe('2026-11-21T12:00:05Z');
    expect(formatRfc3339Seconds(t + 1)).toBe('2026-11-21T12:00:06Z');
    expect(formatRfc3339Seconds(t)).toBe('2026-11-21T12:00:05Z');
    expect(formatRfc3339Seconds(-1)).toBe('1969-12-31T23:59:59Z');
  });
});

describe('parseRfc3339', () => {
  it('reads agent timestamps with fractions and offsets', () => {
    expect(parseRfc3339('2026-11-21T12:00:05.123456789Z')).toBe(
      Date.UTC(2026, 10, 21, 12, 0, 5, 123),
    );
    expect(parseRfc3339('2026-11-21T13:00:05+01:00')).toBe(Date.UTC(2026, 10, 21, 12, 0, 5));
    expect(parseRfc3339('2026-02-30T00:00:00Z')).toBeUndefined();
  });
});
