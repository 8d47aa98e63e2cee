/** Field checks shared by the NodeReport and Static rule sets (payload-rules.ts). */

export type Obj = Record<string, unknown>;

export const INT64_MAX = 2 ** 63;
export const INT32_MAX = 2 ** 31 - 1;
export const INT16_MAX = 2 ** 15 - 1;
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export class Checker {
  readonly errors: string[] = [];

  fail(path: string, why: string): void {
    this.errors.push(`${path}: ${why}`);
  }

  obj(v: unknown, path: string): Obj | undefined {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      this.fail(path, 'must be an object');
      return undefined;
    }
    return v as Obj;
  }

  arr(v: unknown, path: string): unknown[] {
    if (!Array.isArray(v)) {
      this.fail(path, 'must be an array (not null)');
      return [];
    }
    return v;
  }

  text(v: unknown, path: string, max?: number): string | undefined {
    if (typeof v !== 'string' || v.trim() === '') {
      this.fail(path, 'must be non-blank text');
      return undefined;
    }
    if (max !== undefined && [...v.trim()].length > max) this.fail(path, `longer than ${max}`);
    return v;
  }

  optText(v: unknown, path: string, max?: number): void {
    if (v === undefined) return;
    if (typeof v !== 'string') return this.fail(path, 'must be text');
    if (max !== undefined && [...v.trim()].length > max) this.fail(path, `longer than ${max}`);
  }

  bool(v: unknown, path: string): void {
    if (typeof v !== 'boolean') this.fail(path, 'must be a boolean');
  }

  int(v: unknown, path: string, max = INT64_MAX): void {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= max) {
      this.fail(path, `must be a non-negative integer below ${max}`);
    }
  }

  optInt(v: unknown, path: string, max = INT64_MAX): void {
    if (v !== undefined) this.int(v, path, max);
  }

  num(v: unknown, path: string): void {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
      this.fail(path, 'must be a finite non-negative number');
    }
  }

  optNum(v: unknown, path: string): void {
    if (v !== undefined) this.num(v, path);
  }

  ratio(v: unknown, path: string): void {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) {
      this.fail(path, 'must be a ratio in 0..1');
    }
  }

  optRatio(v: unknown, path: string): void {
    if (v !== undefined) this.ratio(v, path);
  }

  unique(items: unknown[], path: string, key = 'name'): void {
    const seen = new Set<string>();
    items.forEach((item, i) => {
      const name = (item as Obj | null)?.[key];
      if (typeof name !== 'string') return;
      if (seen.has(name.trim())) this.fail(`${path}[${i}].${key}`, `duplicate "${name}"`);
      seen.add(name.trim());
    });
  }

  version(v: unknown, path: string): void {
    if (typeof v !== 'string' || v.trim().length > 64 || !SEMVER.test(v.trim())) {
      this.fail(path, 'must be strict SemVer without a v prefix, at most 64 characters');
    }
  }

  timestamp(v: unknown, path: string): void {
    if (typeof v !== 'string' || !RFC3339.test(v) || Number.isNaN(Date.parse(v))) {
      this.fail(path, 'must be an RFC 3339 time');
    } else if (Date.parse(v) <= 0) {
      this.fail(path, 'must not be the zero time');
    }
  }
}
