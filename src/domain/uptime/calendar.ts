import { Temporal } from 'temporal-polyfill';

/** Local calendar maths for uptime, in the configured IANA zone. */
export function localDate(ms: number, zone: string): string {
  return Temporal.Instant.fromEpochMilliseconds(ms)
    .toZonedDateTimeISO(zone)
    .toPlainDate()
    .toString();
}

/**
 * Instant at which the local hour containing `ms` began. Computed by stepping back the local
 * minutes and seconds, so the two occurrences of a repeated DST hour stay distinct.
 */
export function localHourStart(ms: number, zone: string): number {
  const z = Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone);
  return ms - z.minute * 60_000 - z.second * 1000 - z.millisecond;
}

export function localHour(ms: number, zone: string): number {
  return Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone).hour;
}

/** First instant of a local date (the first existing minute when midnight is skipped). */
export function startOfLocalDay(date: string, zone: string): number {
  return Temporal.PlainDate.from(date).toZonedDateTime({ timeZone: zone }).epochMilliseconds;
}

/** The `count` local dates ending today, oldest first. */
export function lastLocalDates(now: number, zone: string, count: number): string[] {
  const today = Temporal.Instant.fromEpochMilliseconds(now).toZonedDateTimeISO(zone).toPlainDate();
  return Array.from({ length: count }, (_, i) =>
    today.subtract({ days: count - 1 - i }).toString(),
  );
}

export function isIsoDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  try {
    return Temporal.PlainDate.from(s, { overflow: 'reject' }).toString() === s;
  } catch {
    return false;
  }
}

/** RFC 3339 with milliseconds and the zone's offset, e.g. 2026-11-21T13:05:41.123+01:00. */
export function zonedTimestamp(ms: number, zone: string): string {
  const z = Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone);
  return z.toString({ timeZoneName: 'never', fractionalSecondDigits: 3 });
}

export function nextDate(date: string): string {
  return Temporal.PlainDate.from(date).add({ days: 1 }).toString();
}
