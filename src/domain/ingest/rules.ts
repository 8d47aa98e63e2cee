import semver from 'semver';
import { AppError } from '../../errors/app-error.js';
import type { ErrorCode } from '../../errors/codes.js';
import { GO_ZERO_TIME_MS, parseRfc3339 } from '../../platform/rfc3339.js';

/** Text limits of spec §8, in Unicode characters. */
export const LIMITS = {
  version: 64,
  hostname: 255,
  diskName: 255,
  diskRef: 320,
  diskKind: 16,
  diskRole: 16,
  raidHealth: 16,
  iface: 64,
  fsType: 32,
  logicalState: 32,
  staticShort: 32,
  staticLong: 255,
} as const;

/**
 * Where a value sits, built only when a rule fails (reports are checked on the ingest hot path,
 * so success must not allocate message strings): `section[index].field`, or `section.field`
 * without an index.
 */
function at(section: string, index?: number, field?: string): string {
  const base = index === undefined ? section : `${section}[${index}]`;
  return field === undefined ? base : `${base}.${field}`;
}

/** First-failure checker for one payload kind; every failure is a 422 with that kind's code. */
export class RuleChecker {
  constructor(
    private readonly code: Extract<ErrorCode, 'invalid_metrics' | 'invalid_static_payload'>,
  ) {}

  fail(message: string): never {
    throw new AppError(this.code, message);
  }

  /** Required text: non-blank after trimming and at most `max` characters. Returns it trimmed. */
  required(
    value: string | undefined,
    max: number | undefined,
    section: string,
    index?: number,
    field?: string,
  ): string {
    const v = value === undefined ? '' : value.trim();
    if (v === '') this.fail(`${at(section, index, field)} is required`);
    if (max !== undefined && v.length > max && charCount(v) > max) {
      this.fail(`${at(section, index, field)} exceeds ${max} characters`);
    }
    return v;
  }

  maxLength(
    value: string | undefined,
    max: number,
    section: string,
    index?: number,
    field?: string,
  ): void {
    if (value !== undefined && value.length > max && charCount(value) > max) {
      this.fail(`${at(section, index, field)} exceeds ${max} characters`);
    }
  }

  nonNegative(value: number | undefined, section: string, index?: number, field?: string): void {
    if (value !== undefined && !(value >= 0 && value <= Number.MAX_VALUE)) {
      this.fail(`${at(section, index, field)} must be a non-negative finite number`);
    }
  }

  /** Every listed field of `obj` is non-negative and finite (or absent). */
  nonNegativeFields<K extends string>(
    obj: Partial<Record<K, number>>,
    fields: readonly K[],
    section: string,
    index?: number,
  ): void {
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i] as K;
      const v = obj[f];
      if (v !== undefined && !(v >= 0 && v <= Number.MAX_VALUE)) {
        this.fail(`${at(section, index, f)} must be a non-negative finite number`);
      }
    }
  }

  ratio(value: number | undefined, section: string, index?: number, field?: string): void {
    if (value !== undefined && !(value >= 0 && value <= 1)) {
      this.fail(`${at(section, index, field)} must be a ratio between 0 and 1`);
    }
  }

  percent(value: number | undefined, section: string, index?: number, field?: string): void {
    if (value !== undefined && !(value >= 0 && value <= 100)) {
      this.fail(`${at(section, index, field)} must be a percentage between 0 and 100`);
    }
  }

  present<T>(value: T | null | undefined, what: string): T {
    if (value === null || value === undefined) this.fail(`${what} is required`);
    return value;
  }

  unique(seen: Set<string>, name: string, what: string): void {
    if (seen.has(name)) this.fail(`duplicate ${what} "${name}"`);
    seen.add(name);
  }

  /** Agent version: strict SemVer, no `v` prefix, at most 64 characters. Returns it trimmed. */
  version(value: string | undefined): string {
    const v = this.required(value, LIMITS.version, 'version');
    if (!isStrictSemver(v)) this.fail('version must be a SemVer version such as 1.2.3');
    return v;
  }

  /**
   * Node clock time. Missing or Go's zero time is a rule failure (422); text that is not a
   * timestamp at all fails decoding in the agent's own protocol, hence 400.
   */
  timestamp(value: string | undefined, what: string): number {
    if (value === undefined) this.fail(`${what} is required`);
    const ms = parseTimestamp(value, what);
    if (ms === GO_ZERO_TIME_MS) this.fail(`${what} is required`);
    return ms;
  }
}

export function parseTimestamp(value: string, what: string): number {
  const ms = parseRfc3339(value);
  if (ms === undefined) throw new AppError('invalid_request', `${what} is not an RFC 3339 time`);
  return ms;
}

export function charCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
  }
  return n;
}

const SEMVER_CORE = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:[-+].*)?$/;

export function isStrictSemver(v: string): boolean {
  return SEMVER_CORE.test(v) && semver.valid(v, { loose: false }) !== null;
}
