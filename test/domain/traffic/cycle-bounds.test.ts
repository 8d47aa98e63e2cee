import { describe, expect, it } from 'vitest';
import {
  cycleAt,
  localDays,
  previousCycle,
  recentCycles,
  type NodeCycle,
} from '../../../src/domain/traffic/cycle-bounds.js';

const ms = (iso: string) => Date.parse(iso);
const iso = (t: number) => new Date(t).toISOString();
const cal = (zone = 'UTC'): NodeCycle => ({
  mode: 'calendar_month',
  startDay: 1,
  anchorDate: '',
  zone,
});
const clamp = (startDay: number, zone = 'UTC'): NodeCycle => ({
  mode: 'clamp_to_month_end',
  startDay,
  anchorDate: '',
  zone,
});
const whmcs = (anchorDate: string, zone = 'UTC'): NodeCycle => ({
  mode: 'whmcs_compatible',
  startDay: Number(anchorDate.slice(8)),
  anchorDate,
  zone,
});

// Every expected boundary below was worked out by hand from the calendar.
describe('billing cycle containing an instant', () => {
  it.each<[string, NodeCycle, string, string, string]>([
    [
      'calendar month',
      cal(),
      '2026-02-15T10:00:00Z',
      '2026-02-01T00:00:00.000Z',
      '2026-03-01T00:00:00.000Z',
    ],
    [
      'calendar month, last instant',
      cal(),
      '2026-02-28T23:59:59.999Z',
      '2026-02-01T00:00:00.000Z',
      '2026-03-01T00:00:00.000Z',
    ],
    [
      'calendar month in Berlin (CEST)',
      cal('Europe/Berlin'),
      '2026-03-31T22:30:00Z',
      '2026-03-31T22:00:00.000Z',
      '2026-04-30T22:00:00.000Z',
    ],
    [
      'calendar month across the US DST start',
      cal('America/New_York'),
      '2026-03-20T12:00:00Z',
      '2026-03-01T05:00:00.000Z',
      '2026-04-01T04:00:00.000Z',
    ],
    [
      'clamp 31, February short month',
      clamp(31),
      '2026-02-15T00:00:00Z',
      '2026-01-31T00:00:00.000Z',
      '2026-02-28T00:00:00.000Z',
    ],
    [
      'clamp 31 from Feb 28',
      clamp(31),
      '2026-02-28T00:00:00Z',
      '2026-02-28T00:00:00.000Z',
      '2026-03-31T00:00:00.000Z',
    ],
    [
      'clamp 31 in April',
      clamp(31),
      '2026-04-30T05:00:00Z',
      '2026-04-30T00:00:00.000Z',
      '2026-05-31T00:00:00.000Z',
    ],
    [
      'clamp 31, leap February',
      clamp(31),
      '2024-02-29T12:00:00Z',
      '2024-02-29T00:00:00.000Z',
      '2024-03-31T00:00:00.000Z',
    ],
    [
      'clamp 30, leap February',
      clamp(30),
      '2024-02-29T23:59:00Z',
      '2024-02-29T00:00:00.000Z',
      '2024-03-30T00:00:00.000Z',
    ],
    [
      'clamp 29, common February',
      clamp(29),
      '2026-02-28T01:00:00Z',
      '2026-02-28T00:00:00.000Z',
      '2026-03-29T00:00:00.000Z',
    ],
    [
      'clamp 29, day before',
      clamp(29),
      '2026-02-27T23:00:00Z',
      '2026-01-29T00:00:00.000Z',
      '2026-02-28T00:00:00.000Z',
    ],
    [
      'clamp 29, leap February',
      clamp(29),
      '2024-02-29T00:00:00Z',
      '2024-02-29T00:00:00.000Z',
      '2024-03-29T00:00:00.000Z',
    ],
    [
      'clamp 8 on the US DST day',
      clamp(8, 'America/New_York'),
      '2026-03-10T00:00:00Z',
      '2026-03-08T05:00:00.000Z',
      '2026-04-08T04:00:00.000Z',
    ],
    [
      'clamp 1 in Tokyo (date ahead of UTC)',
      clamp(1, 'Asia/Tokyo'),
      '2026-04-30T16:00:00Z',
      '2026-04-30T15:00:00.000Z',
      '2026-05-31T15:00:00.000Z',
    ],
    [
      'whmcs Jan 31 overflows to Mar 3',
      whmcs('2026-01-31'),
      '2026-02-15T00:00:00Z',
      '2026-01-31T00:00:00.000Z',
      '2026-03-03T00:00:00.000Z',
    ],
    [
      'whmcs drift stays on the 3rd',
      whmcs('2026-01-31'),
      '2026-04-10T00:00:00Z',
      '2026-04-03T00:00:00.000Z',
      '2026-05-03T00:00:00.000Z',
    ],
    [
      'whmcs Jan 31 in a leap year: Mar 2',
      whmcs('2024-01-31'),
      '2024-03-02T12:00:00Z',
      '2024-03-02T00:00:00.000Z',
      '2024-04-02T00:00:00.000Z',
    ],
    [
      'whmcs Jan 30, leap year: Mar 1',
      whmcs('2024-01-30'),
      '2024-02-20T00:00:00Z',
      '2024-01-30T00:00:00.000Z',
      '2024-03-01T00:00:00.000Z',
    ],
    [
      'whmcs anchor 29 (no overflow in leap year)',
      whmcs('2024-01-29'),
      '2024-02-29T00:00:00Z',
      '2024-02-29T00:00:00.000Z',
      '2024-03-29T00:00:00.000Z',
    ],
    [
      'whmcs anchor day itself',
      whmcs('2026-05-15'),
      '2026-05-15T00:00:00Z',
      '2026-05-15T00:00:00.000Z',
      '2026-06-15T00:00:00.000Z',
    ],
    [
      'whmcs future anchor: from 15 Dec of last year',
      whmcs('2027-05-15'),
      '2026-06-20T00:00:00Z',
      '2026-06-15T00:00:00.000Z',
      '2026-07-15T00:00:00.000Z',
    ],
    [
      'whmcs future anchor 31: Dec 31 then Jan 31, Mar 3',
      whmcs('2027-01-31'),
      '2026-02-10T00:00:00Z',
      '2026-01-31T00:00:00.000Z',
      '2026-03-03T00:00:00.000Z',
    ],
    [
      'whmcs in New York across DST',
      whmcs('2026-02-10', 'America/New_York'),
      '2026-03-09T12:00:00Z',
      '2026-02-10T05:00:00.000Z',
      '2026-03-10T04:00:00.000Z',
    ],
  ])('%s', (_name, cycle, at, start, end) => {
    const w = cycleAt(cycle, ms(at));
    expect([iso(w.start), iso(w.end)]).toEqual([start, end]);
  });

  it('starts a cycle at the first existing instant when local midnight is skipped', () => {
    // Santiago moves from 00:00 -04 to 01:00 -03 on 6 September 2026.
    const w = cycleAt(clamp(6, 'America/Santiago'), ms('2026-09-10T00:00:00Z'));
    expect(iso(w.start)).toBe('2026-09-06T04:00:00.000Z');
    expect(w.startDate).toBe('2026-09-06');
  });

  it('gives the previous cycle and a run of recent ones', () => {
    const p = previousCycle(clamp(31), ms('2026-03-15T00:00:00Z'));
    expect([iso(p.start), iso(p.end)]).toEqual([
      '2026-01-31T00:00:00.000Z',
      '2026-02-28T00:00:00.000Z',
    ]);
    const recent = recentCycles(clamp(31), ms('2026-03-15T00:00:00Z'), 3).map((w) => w.startDate);
    expect(recent).toEqual(['2026-02-28', '2026-01-31', '2025-12-31']);
  });

  it('splits a window into local days, with a 23-hour DST day', () => {
    const days = localDays(
      ms('2026-03-07T05:00:00Z'),
      ms('2026-03-10T04:00:00Z'),
      'America/New_York',
    );
    expect(days.map((d) => [d.date, (d.end - d.start) / 3_600_000])).toEqual([
      ['2026-03-07', 24],
      ['2026-03-08', 23],
      ['2026-03-09', 24],
    ]);
  });
});
