import { lang } from '../i18n';

/**
 * Dates and times in the viewer's locale and time zone, one set of formats for the whole UI
 * (chart axes, chart legends, tables). Without a `locale` argument: Chinese conventions when
 * the UI is in Chinese, else the browser's own locale.
 */

const DEFAULT_LOCALE = lang === 'zh-CN' ? 'zh-CN' : undefined;
const cache = new Map<string, Intl.DateTimeFormat>();

function formatter(explicit: string | undefined, opts: Intl.DateTimeFormatOptions) {
  const locale = explicit ?? DEFAULT_LOCALE;
  const key = `${locale ?? ''}|${JSON.stringify(opts)}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, opts);
    cache.set(key, f);
  }
  return f;
}

const DATE: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit' };
const TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };
const TIME_SEC: Intl.DateTimeFormatOptions = { ...TIME, second: '2-digit' };
const DAY: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric' };

/** Full date and time of an instant (epoch ms), e.g. "11/24/2026, 07:05 PM" in en-US. */
export function formatInstant(ms: number, locale?: string): string {
  return formatter(locale, { ...DATE, ...TIME }).format(ms);
}

/** Full date and time with seconds, for chart legends of the raw ranges. */
export function formatInstantSec(ms: number, locale?: string): string {
  return formatter(locale, { ...DATE, ...TIME_SEC }).format(ms);
}

/** Calendar date of an instant (epoch ms). */
export function formatDay(ms: number, locale?: string): string {
  return formatter(locale, DATE).format(ms);
}

function isLocalMidnight(ms: number): boolean {
  const d = new Date(ms);
  return d.getHours() === 0 && d.getMinutes() === 0 && d.getSeconds() === 0;
}

/**
 * Labels of a time axis (ticks in epoch seconds, `incrSec` apart): the time of day, with
 * seconds when ticks are less than a minute apart, and the day instead at local midnight so a
 * date change is visible; only days once ticks are a day or more apart.
 */
export function timeAxisLabels(ticksSec: readonly number[], incrSec: number, locale?: string) {
  const day = formatter(locale, DAY);
  const time = formatter(locale, incrSec < 60 ? TIME_SEC : TIME);
  return ticksSec.map((t) => {
    const ms = t * 1000;
    if (incrSec >= 86_400 || isLocalMidnight(ms)) return day.format(ms);
    return time.format(ms);
  });
}
