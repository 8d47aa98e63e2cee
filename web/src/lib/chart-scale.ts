import { s } from '../i18n';
import type { ValueKind } from './format';

/**
 * Chart axes that never mislead: round ticks in the unit the axis shows, one unit and one
 * number of decimals for every label of an axis (so labels are never duplicated on a narrow
 * range), and an axis width taken from the widest label. Pure functions; Chart.tsx feeds them
 * to uPlot.
 */

const BINARY_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

/** How one axis shows its values: value ÷ divisor, then the unit around the number. */
export interface AxisUnit {
  divisor: number;
  /** Binary units (bytes, rates): steps may also be powers of two in the unit. */
  binary: boolean;
  /** Whole numbers only (counts). */
  integer: boolean;
  text: (n: string) => string;
}

function binaryUnit(maxAbs: number, rate: boolean): AxisUnit {
  let i = 0;
  let d = 1;
  while (maxAbs >= d * 1024 && i < BINARY_UNITS.length - 1) {
    d *= 1024;
    i++;
  }
  const name = BINARY_UNITS[i] ?? 'B';
  return {
    divisor: d,
    binary: true,
    integer: false,
    text: (n) => (rate ? s.units.perSecond(`${n} ${name}`) : `${n} ${name}`),
  };
}

/** The unit of an axis whose largest absolute value is `maxAbs` (in raw units). */
export function axisUnit(kind: ValueKind, maxAbs: number): AxisUnit {
  const plain = { divisor: 1, binary: false, integer: false };
  switch (kind) {
    case 'bytes':
      return binaryUnit(maxAbs, false);
    case 'rate':
      return binaryUnit(maxAbs, true);
    case 'ratio':
      // Ratios 0..1 are shown as percent.
      return { ...plain, divisor: 0.01, text: (n) => s.units.percent(n) };
    case 'percent':
      return { ...plain, text: (n) => s.units.percent(n) };
    case 'celsius':
      return { ...plain, text: (n) => s.units.celsius(n) };
    case 'count':
      return { ...plain, integer: true, text: (n) => n };
    case 'load':
      return { ...plain, text: (n) => n };
  }
}

/** Smallest span an axis shows when every value is the same (in raw units). */
function minimalSpan(kind: ValueKind): number {
  switch (kind) {
    case 'bytes':
    case 'rate':
      return 1024;
    case 'ratio':
      return 0.01;
    case 'load':
      return 0.1;
    default:
      return 1;
  }
}

/** Round steps in the unit shown, ascending, around `raw`: 1-2-5 decimal, plus 2^n for binary. */
function candidateSteps(raw: number, unit: AxisUnit): number[] {
  const out: number[] = [];
  const e = Math.floor(Math.log10(raw));
  for (let k = e - 1; k <= e + 2; k++) {
    for (const m of [1, 2, 5]) out.push(m * 10 ** k);
  }
  if (unit.binary) {
    for (let p = 1; p <= 1024; p *= 2) out.push(p);
  }
  return [...new Set(out)]
    .filter((x) => x >= raw * (1 - 1e-9) && (!unit.integer || Number.isInteger(x)))
    .sort((a, b) => a - b);
}

export interface NiceScale {
  min: number;
  max: number;
  /** Tick step in raw units. */
  step: number;
  ticks: number[];
}

function ticksOf(min: number, max: number, step: number): number[] {
  const first = Math.round(min / step);
  const last = Math.round(max / step);
  const out: number[] = [];
  for (let i = first; i <= last; i++) out.push(i * step);
  return out;
}

/**
 * A y range and its ticks for data in [dataMin, dataMax]: starts at zero (never exaggerates
 * small changes) unless the kind is a temperature or the data is negative, ends on a round
 * tick, with at most `maxTicks` ticks.
 */
export function niceScale(
  dataMin: number | null | undefined,
  dataMax: number | null | undefined,
  kind: ValueKind,
  maxTicks: number,
): NiceScale {
  let lo = Number.isFinite(dataMin) ? (dataMin as number) : 0;
  let hi = Number.isFinite(dataMax) ? (dataMax as number) : lo;
  if (lo > hi) [lo, hi] = [hi, lo];
  if (kind !== 'celsius') lo = Math.min(0, lo);
  if (hi - lo <= 0) hi = lo + minimalSpan(kind);
  const count = Math.max(2, Math.floor(maxTicks));
  const unit = axisUnit(kind, Math.max(Math.abs(lo), Math.abs(hi)));
  const span = (hi - lo) / unit.divisor;
  for (const c of candidateSteps(span / (count - 1), unit)) {
    const step = c * unit.divisor;
    const min = Math.floor(lo / step + 1e-9) * step;
    const max = Math.ceil(hi / step - 1e-9) * step;
    const ticks = ticksOf(min, max, step);
    if (ticks.length <= count) {
      return { min: ticks[0] ?? min, max: ticks.at(-1) ?? max, step, ticks };
    }
  }
  // Unreachable in practice (the candidates grow past the span); keep the data range.
  return { min: lo, max: hi, step: hi - lo, ticks: [lo, hi] };
}

/** Decimals that tell ticks `step` apart in the unit shown. */
function decimalsFor(stepInUnit: number): number {
  if (!(stepInUnit > 0)) return 0;
  let d = 0;
  while (d < 6 && Math.abs(Math.round(stepInUnit * 10 ** d) - stepInUnit * 10 ** d) > 1e-6) d++;
  return d;
}

/**
 * Labels of a y axis: one unit (from the largest tick) and one number of decimals (from the
 * step) for all of them, so neighbouring ticks never read the same.
 */
export function axisLabels(kind: ValueKind, ticks: readonly number[]): string[] {
  if (ticks.length === 0) return [];
  const maxAbs = Math.max(...ticks.map((t) => Math.abs(t)));
  const unit = axisUnit(kind, maxAbs);
  const steps = ticks.slice(1).map((t, i) => Math.abs(t - (ticks[i] as number)) / unit.divisor);
  const step = steps.length ? Math.min(...steps) : 1;
  let dec = unit.integer ? 0 : decimalsFor(step);
  for (;;) {
    const labels = ticks.map((t) => {
      const v = t / unit.divisor;
      // -0 would print as "-0".
      const n = Math.abs(v) < 0.5 * 10 ** -dec ? 0 : v;
      return unit.text(n.toFixed(dec));
    });
    if (new Set(labels).size === labels.length || dec >= 6) return labels;
    dec++;
  }
}

/** How many y ticks fit a plot of this height in CSS pixels (about one per 30 px). */
export function maxTicksFor(plotHeight: number): number {
  return Math.min(10, Math.max(2, Math.floor(plotHeight / 30)));
}

/**
 * Width of a y axis in CSS pixels: the widest label plus tick and gap, so no label is clipped.
 */
export function axisWidth(
  labels: readonly string[],
  measure: (text: string) => number,
  tickAndGap = 15,
): number {
  let widest = 0;
  for (const l of labels) widest = Math.max(widest, measure(l));
  return Math.ceil(widest + tickAndGap + 2);
}
