import { describe, expect, it } from 'vitest';
import {
  formatAgo,
  formatBytes,
  formatDuration,
  formatPercent,
  formatRate,
  formatRatio,
  formatValue,
  formatDate,
  formatDateTime,
  usageLevel,
} from './format';
import { formatDay, formatInstant } from './datetime';

describe('formatting', () => {
  it('prints bytes in binary units with sensible precision', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.50 KiB');
    expect(formatBytes(15 * 1024 ** 2)).toBe('15.0 MiB');
    expect(formatBytes(250 * 1024 ** 3)).toBe('250 GiB');
    expect(formatBytes(undefined)).toBe('—');
    expect(formatBytes(Number.NaN)).toBe('—');
  });

  it('prints rates, ratios and percents', () => {
    expect(formatRate(2048)).toBe('2.00 KiB/s');
    expect(formatRatio(0.4213)).toBe('42.1%');
    expect(formatPercent(100)).toBe('100%');
    expect(formatPercent(99.954)).toBe('99.95%');
    expect(formatPercent(97.25)).toBe('97.3%');
    expect(formatPercent(null)).toBe('—');
  });

  it('keeps the two most significant parts of a duration', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(65_000)).toBe('1m 5s');
    expect(formatDuration(3 * 86_400_000 + 4 * 3_600_000 + 5 * 60_000)).toBe('3d 4h');
  });

  it('colours usage at 60 % and 90 %', () => {
    expect(usageLevel(0.59)).toBe('ok');
    expect(usageLevel(0.6)).toBe('warn');
    expect(usageLevel(0.899)).toBe('warn');
    expect(usageLevel(0.9)).toBe('danger');
  });

  it('formats chart values by kind', () => {
    expect(formatValue('ratio', 0.5)).toBe('50.0%');
    expect(formatValue('ratio', 0.004)).toBe('0.4%');
    expect(formatValue('percent', 1.234)).toBe('1.23%');
    expect(formatValue('bytes', 1024)).toBe('1.00 KiB');
    expect(formatValue('rate', 1024)).toBe('1.00 KiB/s');
    expect(formatValue('celsius', 47.6)).toBe('48 °C');
    expect(formatValue('count', 1234.4)).toBe('1,234');
    expect(formatValue('load', 0.5)).toBe('0.50');
  });

  it('says how long ago in seconds, then whole minutes', () => {
    expect(formatAgo(17_400)).toBe('17s');
    expect(formatAgo(5 * 60_000 + 42_000)).toBe('5m');
    expect(formatAgo(26 * 3_600_000 + 61_000)).toBe('1d 2h');
  });

  it('prints dates in the viewer locale, the same as the charts', () => {
    const iso = '2026-11-24T12:05:00Z';
    expect(formatDateTime(iso)).toBe(formatInstant(Date.parse(iso)));
    expect(formatDate(iso)).toBe(formatDay(Date.parse(iso)));
    expect(formatDateTime(undefined)).toBe(formatDate(''));
    expect(formatDateTime('not a date')).toBe('not a date');
  });
});
