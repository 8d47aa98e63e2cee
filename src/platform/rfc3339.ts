/**
 * RFC 3339 timestamps as sent by node agents (Go time.Time): any number of fractional digits,
 * `Z` or a numeric offset. Years before 1970 (Go's zero time is year 1) are representable.
 */

/** Go's zero time.Time, 0001-01-01T00:00:00Z, in epoch milliseconds. */
export const GO_ZERO_TIME_MS = -62135596800000;

function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** The decimal digit at i, or NaN (which poisons any sum it enters). */
function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : NaN;
}

const two = (s: string, i: number): number => digit(s, i) * 10 + digit(s, i + 1);

/**
 * Epoch milliseconds (fraction truncated to ms), or undefined when the text is not RFC 3339:
 * `YYYY-MM-DDTHH:MM:SS`, then up to nine fractional digits, then `Z` or `±HH:MM`. Read by
 * character codes rather than a regular expression: every report carries such timestamps, and
 * the match's substrings were garbage on the ingest threads.
 */
export function parseRfc3339(text: string): number | undefined {
  const len = text.length;
  if (len < 20) return undefined;
  const t = text.charCodeAt(10);
  if (
    text.charCodeAt(4) !== 45 || // -
    text.charCodeAt(7) !== 45 ||
    (t !== 84 && t !== 116) || // T t
    text.charCodeAt(13) !== 58 || // :
    text.charCodeAt(16) !== 58
  ) {
    return undefined;
  }
  const y = two(text, 0) * 100 + two(text, 2);
  const mo = two(text, 5);
  const d = two(text, 8);
  const h = two(text, 11);
  const mi = two(text, 14);
  const s = two(text, 17);
  // NaN fails every comparison: a non-digit anywhere above ends here.
  if (!(mo >= 1 && mo <= 12 && d >= 1 && h <= 23 && mi <= 59 && s <= 59 && y >= 0)) {
    return undefined;
  }
  if (d > daysInMonth(y, mo)) return undefined;
  let i = 19;
  let ms = 0;
  if (text.charCodeAt(i) === 46) {
    // .
    const from = ++i;
    while (i < len && i - from < 9 && !Number.isNaN(digit(text, i))) {
      if (i - from < 3) ms = ms * 10 + digit(text, i);
      i++;
    }
    const n = i - from;
    if (n === 0) return undefined;
    if (n < 3) ms *= n === 1 ? 100 : 10;
  }
  let offsetMin = 0;
  const z = text.charCodeAt(i);
  if (z === 90 || z === 122) {
    // Z z
    if (i + 1 !== len) return undefined;
  } else if (z === 43 || z === 45) {
    // + -
    if (i + 6 !== len || text.charCodeAt(i + 3) !== 58) return undefined;
    const oh = two(text, i + 1);
    const om = two(text, i + 4);
    if (!(oh <= 23 && om <= 59)) return undefined;
    offsetMin = (z === 45 ? -1 : 1) * (oh * 60 + om);
  } else {
    return undefined;
  }
  return (
    daysFromCivil(y, mo, d) * 86_400_000 +
    h * 3_600_000 +
    mi * 60_000 +
    s * 1000 +
    ms -
    offsetMin * 60_000
  );
}

/** Recently formatted seconds: reports arriving in the same second share their strings. */
const formatted = new Map<number, string>();
const FORMATTED_MAX = 64;

/** `2026-11-21T12:00:00Z`: UTC with second precision, as the API writes timestamps. */
export function formatRfc3339Seconds(ms: number): string {
  const second = Math.floor(ms / 1000);
  let text = formatted.get(second);
  if (text === undefined) {
    text = `${new Date(second * 1000).toISOString().slice(0, 19)}Z`;
    if (formatted.size >= FORMATTED_MAX) formatted.clear();
    formatted.set(second, text);
  }
  return text;
}
