import { describe, expect, it } from 'vitest';
import { cycleFromPatch, type CycleInput } from '../../../src/domain/nodes/cycle.js';
import type { AppError } from '../../../src/errors/app-error.js';

const codeOf = (input: CycleInput) => {
  try {
    cycleFromPatch(input, 'UTC');
  } catch (err) {
    return (err as AppError).code;
  }
  return undefined;
};

describe('billing cycle fields of a node patch', () => {
  it('is absent when no cycle field is sent', () => {
    expect(cycleFromPatch({}, 'UTC')).toBeUndefined();
  });

  it('stores the legacy default mode, alone, as an explicit calendar month', () => {
    expect(cycleFromPatch({ cycleMode: 'default' }, 'UTC')).toEqual({
      mode: 'calendar_month',
      startDay: 1,
      anchorDate: '',
      timezone: '',
    });
    expect(codeOf({ cycleMode: 'default', billingTimezone: '' })).toBe(
      'invalid_traffic_cycle_settings',
    );
    expect(codeOf({ cycleMode: 'default', billingStartDay: 1 })).toBe(
      'invalid_traffic_cycle_settings',
    );
  });

  it('calendar_month takes a timezone (possibly empty) and an empty anchor at most', () => {
    expect(cycleFromPatch({ cycleMode: 'calendar_month', billingTimezone: '' }, 'UTC')).toEqual({
      mode: 'calendar_month',
      startDay: 1,
      anchorDate: '',
      timezone: '',
    });
    expect(
      cycleFromPatch(
        { cycleMode: 'calendar_month', billingTimezone: ' Europe/Berlin ', billingAnchorDate: '' },
        'UTC',
      ),
    ).toMatchObject({ timezone: 'Europe/Berlin' });
    expect(codeOf({ cycleMode: 'calendar_month' })).toBe('invalid_traffic_cycle_settings');
  });

  // Older clients send all four cycle fields in every patch (issue 14).
  it.each([
    [
      'calendar_month',
      { billingStartDay: 1, billingAnchorDate: '' },
      { mode: 'calendar_month', startDay: 1, anchorDate: '', timezone: '' },
    ],
    [
      'calendar_month',
      { billingStartDay: 45, billingAnchorDate: 'not a date' },
      { mode: 'calendar_month', startDay: 1, anchorDate: '', timezone: '' },
    ],
    [
      'clamp_to_month_end',
      { billingStartDay: 30, billingAnchorDate: '2026-01-05' },
      { mode: 'clamp_to_month_end', startDay: 30, anchorDate: '', timezone: '' },
    ],
    [
      'whmcs_compatible',
      { billingStartDay: 1, billingAnchorDate: '2026-01-31' },
      { mode: 'whmcs_compatible', startDay: 31, anchorDate: '2026-01-31', timezone: '' },
    ],
  ])('%s accepts and ignores the fields it does not use (%j)', (mode, extra, stored) => {
    expect(cycleFromPatch({ cycleMode: mode, billingTimezone: '', ...extra }, 'UTC')).toEqual(
      stored,
    );
  });

  it('clamp_to_month_end needs a start day 1-31 and a timezone', () => {
    expect(
      cycleFromPatch(
        { cycleMode: 'clamp_to_month_end', billingStartDay: 31, billingTimezone: 'UTC' },
        'UTC',
      ),
    ).toEqual({ mode: 'clamp_to_month_end', startDay: 31, anchorDate: '', timezone: 'UTC' });
    expect(codeOf({ cycleMode: 'clamp_to_month_end', billingTimezone: 'UTC' })).toBe(
      'invalid_traffic_cycle_settings',
    );
    expect(codeOf({ cycleMode: 'clamp_to_month_end', billingStartDay: 5 })).toBe(
      'invalid_traffic_cycle_settings',
    );
    for (const day of [0, 32, -1]) {
      expect(
        codeOf({ cycleMode: 'clamp_to_month_end', billingStartDay: day, billingTimezone: '' }),
      ).toBe('invalid_traffic_billing_start_day');
    }
  });

  it('whmcs_compatible needs an anchor date and a timezone; the day follows the anchor', () => {
    expect(
      cycleFromPatch(
        { cycleMode: 'whmcs_compatible', billingAnchorDate: '2026-01-31', billingTimezone: '' },
        'UTC',
      ),
    ).toEqual({ mode: 'whmcs_compatible', startDay: 31, anchorDate: '2026-01-31', timezone: '' });
    // An RFC 3339 instant is dated in the cycle zone (here already the next day in Tokyo).
    expect(
      cycleFromPatch(
        {
          cycleMode: 'whmcs_compatible',
          billingAnchorDate: '2026-03-09T20:00:00Z',
          billingTimezone: 'Asia/Tokyo',
        },
        'UTC',
      ),
    ).toMatchObject({ anchorDate: '2026-03-10', startDay: 10 });
    expect(
      cycleFromPatch(
        {
          cycleMode: 'whmcs_compatible',
          billingAnchorDate: '2026-03-09T20:00:00-05:00',
          billingTimezone: '',
        },
        'UTC',
      ),
    ).toMatchObject({ anchorDate: '2026-03-10' });
    expect(codeOf({ cycleMode: 'whmcs_compatible', billingTimezone: '' })).toBe(
      'invalid_traffic_cycle_settings',
    );
    expect(codeOf({ cycleMode: 'whmcs_compatible', billingStartDay: 5, billingTimezone: '' })).toBe(
      'invalid_traffic_cycle_settings',
    );
  });

  it.each(['', '2026-02-30', '20260105', '2026-1-5', 'yesterday', '2026-01-05T10:00:00'])(
    'rejects anchor %j with invalid_traffic_billing_anchor_date',
    (anchor) => {
      expect(
        codeOf({ cycleMode: 'whmcs_compatible', billingAnchorDate: anchor, billingTimezone: '' }),
      ).toBe('invalid_traffic_billing_anchor_date');
    },
  );

  it('requires the mode whenever another cycle field is sent', () => {
    expect(codeOf({ billingTimezone: 'UTC' })).toBe('invalid_traffic_cycle_settings');
    expect(codeOf({ billingStartDay: 3 })).toBe('invalid_traffic_cycle_settings');
    expect(codeOf({ billingAnchorDate: '' })).toBe('invalid_traffic_cycle_settings');
  });

  it('rejects unknown modes and zones', () => {
    expect(codeOf({ cycleMode: 'weekly', billingTimezone: '' })).toBe('invalid_traffic_cycle_mode');
    for (const zone of ['Mars/Olympus', '+01:00', 'Local', '../etc']) {
      expect(codeOf({ cycleMode: 'calendar_month', billingTimezone: zone }), zone).toBe(
        'invalid_traffic_billing_timezone',
      );
    }
  });
});
