/** Value parsers for configuration keys; each throws a plain message on bad input. */

const DURATION_PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses Go-style durations such as `17s`, `1h30m`, `500ms`, `14d` into milliseconds. */
export function parseDuration(text: string): number {
  const input = text.trim();
  if (input === '') throw new Error('must be a duration such as 17s, 5m or 14d');
  DURATION_PART.lastIndex = 0;
  let total = 0;
  let consumed = 0;
  for (let m = DURATION_PART.exec(input); m; m = DURATION_PART.exec(input)) {
    total += Number(m[1]) * (UNIT_MS[m[2] as string] as number);
    consumed = DURATION_PART.lastIndex;
  }
  if (consumed !== input.length) throw new Error('must be a duration such as 17s, 5m or 14d');
  return Math.round(total);
}

export interface ListenAddress {
  host: string;
  port: number;
}

/** Parses `host:port`, `[v6]:port` or `:port` (all interfaces). */
export function parseListen(text: string): ListenAddress {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(text.trim());
  const port = m ? Number(m[3]) : NaN;
  if (!m || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error('must be host:port, for example 127.0.0.1:8080');
  }
  const host = m[1] ?? (m[2] || '0.0.0.0');
  return { host, port };
}

export function parseTimeZone(text: string): string {
  const zone = text.trim();
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    throw new Error(`"${zone}" is not an IANA time zone name`);
  }
}

export function hostTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Root URL only: scheme http(s), host, optional port; no path, query, fragment or user info. */
export function parsePublicUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new Error('must be an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error('must use http or https');
  }
  if (
    url.username ||
    url.password ||
    url.search ||
    url.hash ||
    (url.pathname !== '/' && url.pathname !== '')
  ) {
    throw new Error('must be a root URL without path, query, fragment or user info');
  }
  return url.origin;
}

export function parseBoolean(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(v)) return true;
    if (['0', 'false', 'no', 'off'].includes(v)) return false;
  }
  throw new Error('must be true or false');
}

const BYTE_UNITS: Record<string, number> = {
  '': 1,
  k: 2 ** 10,
  kib: 2 ** 10,
  m: 2 ** 20,
  mib: 2 ** 20,
  g: 2 ** 30,
  gib: 2 ** 30,
  t: 2 ** 40,
  tib: 2 ** 40,
};

/** Parses a byte count: a whole number, optionally with a binary unit (`512M`, `20GiB`). */
export function parseByteSize(value: unknown, min: number): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  const m = /^(\d+)\s*([a-z]*)$/i.exec(text.trim());
  const unit = m ? BYTE_UNITS[(m[2] ?? '').toLowerCase()] : undefined;
  const n = m && unit !== undefined ? Number(m[1]) * unit : NaN;
  if (!Number.isSafeInteger(n) || n < min) {
    throw new Error(`must be a byte size of at least ${min} (a number, or with K, M, G or T)`);
  }
  return n;
}

export function parseInteger(value: unknown, min: number, max: number): number {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`must be an integer from ${min} to ${max}`);
  }
  return n;
}

const IPV4_CIDR = /^(\d{1,3})(\.\d{1,3}){3}(\/\d{1,2})?$/;
const IPV6_CIDR = /^[0-9a-fA-F:.]+(\/\d{1,3})?$/;

export function parseCidrList(value: unknown): string[] {
  const items = Array.isArray(value)
    ? value
    : typeof value === 'string'
      ? value.split(',').filter((s) => s.trim() !== '')
      : null;
  if (!items) throw new Error('must be a list of IP addresses or CIDR ranges');
  return items.map((item) => {
    if (typeof item !== 'string') throw new Error('must be a list of IP addresses or CIDR ranges');
    const v = item.trim();
    if (!IPV4_CIDR.test(v) && !(v.includes(':') && IPV6_CIDR.test(v))) {
      throw new Error(`"${v}" is not an IP address or CIDR range`);
    }
    return v;
  });
}

/** A duration of whole seconds from `min` to `max` seconds, in milliseconds. */
export function parseSecondsWithin(text: string, min: number, max: number): number {
  const ms = parseDuration(text);
  if (ms % 1000 !== 0 || ms < min * 1000 || ms > max * 1000) {
    throw new Error(`must be whole seconds from ${min}s to ${max}s (e.g. 30s)`);
  }
  return ms;
}
