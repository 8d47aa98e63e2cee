import { Temporal } from 'temporal-polyfill';
import { AppError } from '../../errors/app-error.js';

import { CYCLE_MODES, type CycleMode } from '../../protocol/api/constants.js';

export { CYCLE_MODES, type CycleMode };
const LEGACY_MODE = 'default';

export interface CycleInput {
  cycleMode?: string | undefined;
  billingStartDay?: number | undefined;
  billingAnchorDate?: string | undefined;
  billingTimezone?: string | undefined;
}

export interface CycleSettings {
  mode: CycleMode;
  startDay: number;
  anchorDate: string;
  /** IANA name, or '' for the app time zone at read time. */
  timezone: string;
}

const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]*$/;
const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function settingsError(message: string): AppError {
  return new AppError('invalid_traffic_cycle_settings', message);
}

/** An IANA zone name in its canonical spelling; '' stays '' (use the app zone). */
export function cycleTimezone(raw: string): string {
  const name = raw.trim();
  if (name === '') return '';
  if (ZONE_NAME.test(name)) {
    try {
      return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    } catch {
      // fall through to the error below
    }
  }
  throw new AppError('invalid_traffic_billing_timezone', `"${name}" is not an IANA time zone`);
}

/** YYYY-MM-DD, or an RFC 3339 instant taken as a date in the cycle zone. */
export function anchorDate(raw: string, zone: string): Temporal.PlainDate {
  const text = raw.trim();
  try {
    if (PLAIN_DATE.test(text)) return Temporal.PlainDate.from(text, { overflow: 'reject' });
    if (RFC3339.test(text)) {
      return Temporal.Instant.from(text.toUpperCase()).toZonedDateTimeISO(zone).toPlainDate();
    }
  } catch {
    // fall through to the error below
  }
  throw new AppError(
    'invalid_traffic_billing_anchor_date',
    'anchor date must be YYYY-MM-DD or an RFC 3339 time',
  );
}

function startDay(value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > 31) {
    throw new AppError('invalid_traffic_billing_start_day');
  }
  return value;
}

const present = (v: unknown) => v !== undefined;

/**
 * The cycle fields of a node patch, which are atomic (spec §2.3): when any is sent,
 * traffic_cycle_mode and every field its mode needs must be sent; fields it does not use are
 * ignored. The legacy mode
 * `default` stands alone and is stored as an explicit calendar month. Returns undefined when
 * no cycle field was sent. `appZone` dates an RFC 3339 anchor when the zone is ''.
 */
export function cycleFromPatch(input: CycleInput, appZone: string): CycleSettings | undefined {
  const mode = input.cycleMode;
  const hasDay = present(input.billingStartDay);
  const hasAnchor = present(input.billingAnchorDate);
  const hasZone = present(input.billingTimezone);
  if (mode === undefined) {
    if (hasDay || hasAnchor || hasZone) {
      throw settingsError('cycle fields require traffic_cycle_mode');
    }
    return undefined;
  }
  if (mode === LEGACY_MODE) {
    if (hasDay || hasAnchor || hasZone) {
      throw settingsError('the legacy mode "default" takes no other cycle field');
    }
    return { mode: 'calendar_month', startDay: 1, anchorDate: '', timezone: '' };
  }
  if (!(CYCLE_MODES as readonly string[]).includes(mode)) {
    throw new AppError('invalid_traffic_cycle_mode');
  }
  // Clients built for older versions send all four cycle fields with every patch: a field the
  // mode does not use is accepted and ignored (not validated), the same way for every mode,
  // while the fields the mode needs stay required.
  const needs = {
    calendar_month: { day: false, anchor: false },
    clamp_to_month_end: { day: true, anchor: false },
    whmcs_compatible: { day: false, anchor: true },
  }[mode as CycleMode];
  if (!hasZone) throw settingsError(`${mode} requires traffic_billing_timezone`);
  if (needs.day && !hasDay) throw settingsError(`${mode} requires a start day`);
  if (needs.anchor && !hasAnchor) throw settingsError(`${mode} requires an anchor date`);
  const timezone = cycleTimezone(input.billingTimezone as string);
  if (mode === 'whmcs_compatible') {
    const date = anchorDate(input.billingAnchorDate as string, timezone || appZone);
    return { mode, startDay: date.day, anchorDate: date.toString(), timezone };
  }
  if (mode === 'clamp_to_month_end') {
    return {
      mode,
      startDay: startDay(input.billingStartDay as number),
      anchorDate: '',
      timezone,
    };
  }
  return { mode: 'calendar_month', startDay: 1, anchorDate: '', timezone };
}
