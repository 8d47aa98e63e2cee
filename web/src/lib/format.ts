import { s } from '../i18n';
import { formatDay, formatInstant } from './datetime';

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

function trimmed(value: number): string {
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return value.toFixed(digits);
}

/** 1536 → "1.50 KiB"; binary units as agents report bytes. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return s.app.none;
  let v = Math.abs(bytes);
  let i = 0;
  while (v >= 1024 && i < UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  const sign = bytes < 0 ? '-' : '';
  return i === 0 ? `${sign}${Math.round(v)} B` : `${sign}${trimmed(v)} ${UNITS[i]}`;
}

export function formatRate(bytesPerSec: number | null | undefined): string {
  if (bytesPerSec === null || bytesPerSec === undefined) return s.app.none;
  return s.units.perSecond(formatBytes(bytesPerSec));
}

/** Ratio 0..1 → "42.0%". */
export function formatRatio(ratio: number | null | undefined, digits = 1): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return s.app.none;
  return s.units.percent((ratio * 100).toFixed(digits));
}

/** Percent 0..100 → "99.95%"; keeps enough digits to tell SLA values apart. */
export function formatPercent(percent: number | null | undefined): string {
  if (percent === null || percent === undefined || !Number.isFinite(percent)) return s.app.none;
  const digits = percent === 100 || percent === 0 ? 0 : percent >= 99 ? 2 : 1;
  return s.units.percent(percent.toFixed(digits));
}

export function formatNumber(v: number | null | undefined, digits = 2): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return s.app.none;
  return Number.isInteger(v) ? v.toLocaleString('en') : v.toFixed(digits);
}

export function formatCelsius(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return s.app.none;
  return s.units.celsius(v.toFixed(0));
}

/** Milliseconds → "3d 4h", "12m 5s": two most significant parts. */
export function formatDuration(ms: number): string {
  const sec = Math.max(0, Math.floor(ms / 1000));
  const parts: string[] = [];
  const d = Math.floor(sec / 86400);
  const h = Math.floor((sec % 86400) / 3600);
  const m = Math.floor((sec % 3600) / 60);
  const r = sec % 60;
  if (d) parts.push(s.time.days(d));
  if (h) parts.push(s.time.hours(h));
  if (m) parts.push(s.time.minutes(m));
  if (r || parts.length === 0) parts.push(s.time.seconds(r));
  return parts.slice(0, 2).join(' ');
}

/**
 * How long ago, for "last seen": seconds under a minute, then whole minutes (so the text, and
 * a card showing it, changes once a minute rather than every second).
 */
export function formatAgo(ms: number): string {
  return formatDuration(ms < 60_000 ? ms : Math.floor(ms / 60_000) * 60_000);
}

/** ISO timestamp → date and time in the viewer's locale and zone (as on the charts). */
export function formatDateTime(iso: string | undefined): string {
  if (!iso) return s.app.none;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : formatInstant(t);
}

/** ISO timestamp → calendar date in the viewer's locale and zone. */
export function formatDate(iso: string | undefined): string {
  if (!iso) return s.app.none;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : formatDay(t);
}

/** Usage level used for colours: warn at 60 %, danger at 90 % (reference §11.5). */
export type Level = 'ok' | 'warn' | 'danger';

export function usageLevel(ratio: number): Level {
  if (ratio >= 0.9) return 'danger';
  if (ratio >= 0.6) return 'warn';
  return 'ok';
}

export type ValueKind = 'ratio' | 'percent' | 'bytes' | 'rate' | 'count' | 'celsius' | 'load';

/** Axis and legend text for a chart value of the given kind. */
export function formatValue(kind: ValueKind, v: number): string {
  switch (kind) {
    case 'ratio':
      return formatRatio(v, 1);
    case 'percent':
      return s.units.percent(v.toFixed(v < 10 ? 2 : 1));
    case 'bytes':
      return formatBytes(v);
    case 'rate':
      return formatRate(v);
    case 'celsius':
      return formatCelsius(v);
    case 'load':
      return v.toFixed(2);
    case 'count':
      return Math.round(v).toLocaleString('en');
  }
}
