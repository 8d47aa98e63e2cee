/**
 * RFC 3339 timestamps as sent by node agents (Go time.Time): any number of fractional digits,
 * `Z` or a numeric offset. Years before 1970 (Go's zero time is year 1) are representable.
 */

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

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
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}

/** Epoch milliseconds (fraction truncated to ms), or undefined when the text is not RFC 3339. */
export function parseRfc3339(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) {
    return undefined;
  }
  let offsetMin = 0;
  if (!m[8]) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    offsetMin = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const ms = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
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
