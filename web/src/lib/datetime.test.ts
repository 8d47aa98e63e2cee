import { describe, expect, it } from 'vitest';
import { formatDay, formatInstant, formatInstantSec, timeAxisLabels } from './datetime';

describe('dates in the viewer locale', () => {
  const noon = new Date(2026, 10, 24, 12, 5, 9).getTime();
  const midnight = new Date(2026, 10, 25, 0, 0, 0).getTime();

  it('formats instants with the locale conventions', () => {
    expect(formatInstant(noon, 'en-GB')).toBe('24/11/2026, 12:05');
    expect(formatInstant(noon, 'de-DE')).toBe('24.11.2026, 12:05');
    expect(formatInstantSec(noon, 'en-GB')).toBe('24/11/2026, 12:05:09');
    expect(formatDay(noon, 'en-GB')).toBe('24/11/2026');
  });

  it('labels time ticks with the time and the day at midnight', () => {
    expect(timeAxisLabels([noon / 1000, midnight / 1000], 3600, 'en-GB')).toEqual([
      '12:05',
      '25 Nov',
    ]);
    expect(timeAxisLabels([noon / 1000], 30, 'en-GB')).toEqual(['12:05:09']);
    expect(timeAxisLabels([noon / 1000], 86_400, 'en-GB')).toEqual(['24 Nov']);
  });
});
