import { Temporal } from 'temporal-polyfill';
import type { CycleMode } from '../nodes/cycle.js';

/** The cycle fields of one node as stored. */
export interface NodeCycle {
  mode: CycleMode;
  startDay: number;
  /** YYYY-MM-DD for whmcs_compatible, '' otherwise. */
  anchorDate: string;
  /** IANA zone the boundaries are local midnights of. */
  zone: string;
}

/** A billing cycle `[start, end)` in epoch ms, with the local dates it starts and ends on. */
export interface CycleWindow {
  start: number;
  end: number;
  startDate: string;
  endDate: string;
}

type PlainDate = Temporal.PlainDate;

function daysIn(year: number, month: number): number {
  return Temporal.PlainYearMonth.from({ year, month }).daysInMonth;
}

/** Year and month `delta` months after (year, month). */
function shiftMonth(year: number, month: number, delta: number): [number, number] {
  const idx = year * 12 + (month - 1) + delta;
  return [Math.floor(idx / 12), (idx % 12) + 1];
}

/**
 * One calendar month later with overflow carried into the next month (Jan 31 → Mar 3, or
 * Mar 2 in a leap year), the "+1 month" of WHMCS and PHP that providers bill by.
 */
function addMonthOverflow(d: PlainDate): PlainDate {
  const [y, m] = shiftMonth(d.year, d.month, 1);
  return Temporal.PlainDate.from({ year: y, month: m, day: 1 }).add({ days: d.day - 1 });
}

function clampedBoundary(year: number, month: number, startDay: number): PlainDate {
  return Temporal.PlainDate.from({ year, month, day: Math.min(startDay, daysIn(year, month)) });
}

/** Boundary dates `[b, next)` with b ≤ date < next for the month-based modes. */
function monthlyBounds(date: PlainDate, startDay: number): [PlainDate, PlainDate] {
  let [y, m] = [date.year, date.month];
  let b = clampedBoundary(y, m, startDay);
  if (Temporal.PlainDate.compare(b, date) > 0) {
    [y, m] = shiftMonth(y, m, -1);
    b = clampedBoundary(y, m, startDay);
  }
  const [ny, nm] = shiftMonth(y, m, 1);
  return [b, clampedBoundary(ny, nm, startDay)];
}

/**
 * WHMCS boundaries: the anchor, then "+1 month" applied again and again (an overflow drifts
 * for good). With the anchor still ahead, the series starts on 1 December of the previous year
 * moved to the anchor's day, the way the reference generates it.
 */
function whmcsBounds(date: PlainDate, anchor: PlainDate): [PlainDate, PlainDate] {
  let b =
    Temporal.PlainDate.compare(anchor, date) <= 0
      ? anchor
      : Temporal.PlainDate.from({ year: date.year - 1, month: 12, day: anchor.day });
  let next = addMonthOverflow(b);
  while (Temporal.PlainDate.compare(next, date) <= 0) {
    b = next;
    next = addMonthOverflow(b);
  }
  return [b, next];
}

function startOf(date: PlainDate, zone: string): number {
  return date.toZonedDateTime({ timeZone: zone }).epochMilliseconds;
}

/** The node's billing cycle containing the instant `at` (spec §2.3, reference §5.5). */
export function cycleAt(cycle: NodeCycle, at: number): CycleWindow {
  const date = Temporal.Instant.fromEpochMilliseconds(at)
    .toZonedDateTimeISO(cycle.zone)
    .toPlainDate();
  let bounds: [PlainDate, PlainDate];
  if (cycle.mode === 'whmcs_compatible' && cycle.anchorDate !== '') {
    bounds = whmcsBounds(date, Temporal.PlainDate.from(cycle.anchorDate));
  } else {
    bounds = monthlyBounds(date, cycle.mode === 'clamp_to_month_end' ? cycle.startDay : 1);
  }
  const [b, next] = bounds;
  return {
    start: startOf(b, cycle.zone),
    end: startOf(next, cycle.zone),
    startDate: b.toString(),
    endDate: next.toString(),
  };
}

/** The cycle that ends where the cycle containing `at` starts. */
export function previousCycle(cycle: NodeCycle, at: number): CycleWindow {
  return cycleAt(cycle, cycleAt(cycle, at).start - 1);
}

/** The `count` cycles ending with the one containing `at`, newest first. */
export function recentCycles(cycle: NodeCycle, at: number, count: number): CycleWindow[] {
  const out: CycleWindow[] = [];
  let w = cycleAt(cycle, at);
  for (let i = 0; i < count; i++) {
    out.push(w);
    w = cycleAt(cycle, w.start - 1);
  }
  return out;
}

/** One local day clipped to a window; `dayStart`/`dayEnd` are its unclipped bounds. */
export interface LocalDay {
  date: string;
  start: number;
  end: number;
  dayStart: number;
  dayEnd: number;
}

/** Local days `[start, end)` in `zone` that overlap `[from, to)`, clipped to it. */
export function localDays(from: number, to: number, zone: string): LocalDay[] {
  const out: LocalDay[] = [];
  let d = Temporal.Instant.fromEpochMilliseconds(from).toZonedDateTimeISO(zone).toPlainDate();
  for (;;) {
    const s = startOf(d, zone);
    if (s >= to) break;
    const next = d.add({ days: 1 });
    const e = startOf(next, zone);
    out.push({
      date: d.toString(),
      start: Math.max(s, from),
      end: Math.min(e, to),
      dayStart: s,
      dayEnd: e,
    });
    d = next;
  }
  return out;
}
