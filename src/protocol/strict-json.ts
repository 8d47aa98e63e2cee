/**
 * Strict JSON reader for request bodies (spec §4.1.6). Unlike JSON.parse it rejects duplicate
 * object keys, and it keeps integer literals beyond the 64-bit ranges distinguishable so that
 * schema range checks (int64, uint64) stay exact. Invalid UTF-8 is rejected by the decoder.
 * It sits on the ingest hot path: bench/json-reader.ts measures it against JSON.parse.
 */

import { isAscii, isUtf8 } from 'node:buffer';

export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
}

/** Largest doubles that still stand for an in-range literal; see bumpIfOutOfRange. */
const TWO_63 = 9223372036854775808;
const TWO_64 = 18446744073709551616;
const INT64_MAX = '9223372036854775807';
const INT64_MIN_ABS = '9223372036854775808';
const UINT64_MAX = '18446744073709551615';

/**
 * The body as text, or a JsonSyntaxError when it is not valid UTF-8. A byte order mark is kept
 * (JSON does not allow one, so it fails the parse). Node's validators and decoders run at
 * memory speed: 0.5–1 µs for a 7.6 KB report against 4 µs for a fatal TextDecoder, which gives
 * the same text (see test/protocol/strict-json-decode.test.ts).
 */
export function decodeUtf8(buf: Uint8Array): string {
  const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  // Pure ASCII (every agent's report) is its own Latin-1: the cheapest copy into a string.
  if (isAscii(b)) return b.toString('latin1');
  if (!isUtf8(b)) throw new JsonSyntaxError('body is not valid UTF-8');
  return b.toString('utf8');
}

/** Parses exactly one JSON value from a UTF-8 buffer. */
export function parseStrictJsonBuffer(buf: Uint8Array): unknown {
  return parseStrictJson(decodeUtf8(buf));
}

/**
 * Most bodies hold no duplicate key and no number beyond ±1e18 (where int64/uint64 limits need
 * the exact literal): those are read by JSON.parse (native, several times faster) plus one scan
 * over the text. Every member of an object ends its key with `":` (a body with whitespace before
 * a colon takes the full reader), and inside strings the pair can only appear as `\":`, so the
 * text count is at least the number of members; a repeated key leaves the parsed value with
 * fewer own keys. So equal counts prove there was no duplicate. Anything unusual goes through
 * the full reader below, which also gives the precise error message.
 */
export function parseStrictJson(text: string): unknown {
  const members = fastPathMembers(text);
  // JSON.parse accepts lone surrogates (`"\ud800"`); only the full reader checks the pairs.
  if (members >= 0 && !mayEscapeSurrogate(text)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return parseStrictJsonSlow(text);
    }
    if (countMembers(value, 0) === members) return value;
  }
  return parseStrictJsonSlow(text);
}

/**
 * Whether the text may hold a `\uD800`–`\uDFFF` escape. Decoded UTF-8 can carry a surrogate
 * only as an escape, so a body without `\u` (most of them) costs one native search.
 */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/g;

function mayEscapeSurrogate(s: string): boolean {
  const at = s.indexOf('\\u');
  if (at === -1) return false;
  SURROGATE_ESCAPE.lastIndex = at;
  return SURROGATE_ESCAPE.test(s);
}

/** Occurrences of `":` in the text, or -1 when the fast path cannot vouch for the body. */
export function fastPathMembers(s: string): number {
  let n = 0;
  for (let i = s.indexOf(':'); i >= 0; i = s.indexOf(':', i + 1)) {
    const before = s.charCodeAt(i - 1);
    if (before === 0x22) n++;
    // Whitespace before a colon: maybe a spaced key, which the count would miss.
    else if (before === 0x20 || before === 0x0a || before === 0x0d || before === 0x09) return -1;
  }
  return n;
}

/** Beyond this magnitude a number literal may need the full reader's exact 64-bit handling. */
const EXACT_LIMIT = 1e18;

/**
 * Own keys of every object in the value; NaN (never equal) when a number is too large to trust
 * JSON.parse with (19+ digit integers, overflow to Infinity) or containers nest deeper than the
 * full reader allows.
 */
export function countMembers(v: unknown, depth: number): number {
  if (typeof v === 'number') return v < EXACT_LIMIT && v > -EXACT_LIMIT ? 0 : NaN;
  if (typeof v !== 'object' || v === null) return 0;
  if (depth >= MAX_DEPTH) return NaN;
  let n = 0;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) n += countMembers(v[i], depth + 1);
    return n;
  }
  // JSON.parse objects have only own, enumerable data keys; for-in walks them without the
  // key array Object.keys would allocate.
  const obj = v as Record<string, unknown>;
  for (const k in obj) n += 1 + countMembers(obj[k], depth + 1);
  return n;
}

/** The full reader: rejects duplicate keys, keeps 64-bit literals distinguishable. */
export function parseStrictJsonSlow(text: string): unknown {
  const p = new Parser(text);
  p.skipWs();
  if (p.pos >= text.length) throw new JsonSyntaxError('empty body');
  const value = p.value(0);
  p.skipWs();
  if (p.pos !== text.length) throw new JsonSyntaxError('unexpected data after the JSON value');
  return value;
}

const MAX_DEPTH = 256;

function digitsGreater(a: string, b: string): boolean {
  return a.length !== b.length ? a.length > b.length : a > b;
}

/**
 * Literals whose magnitude rounds onto 2^63 or 2^64 but lie beyond the int64/uint64 limits
 * are nudged one ulp further out, so `maximum: 2^63` (int64) and `maximum: 2^64` (uint64)
 * accept every in-range literal and reject every out-of-range one.
 */
function bumpIfOutOfRange(digits: string, negative: boolean, value: number): number {
  const abs = Math.abs(value);
  if (negative) {
    if (abs === TWO_63 && digitsGreater(digits, INT64_MIN_ABS)) return -(TWO_63 + 2048);
    return value;
  }
  if (abs === TWO_63 && digitsGreater(digits, INT64_MAX)) return TWO_63 + 2048;
  if (abs === TWO_64 && digitsGreater(digits, UINT64_MAX)) return TWO_64 + 4096;
  return value;
}

class Parser {
  pos = 0;
  constructor(private readonly s: string) {}

  fail(what: string): never {
    throw new JsonSyntaxError(`${what} at position ${this.pos}`);
  }

  skipWs(): void {
    const s = this.s;
    let i = this.pos;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else break;
    }
    this.pos = i;
  }

  value(depth: number): unknown {
    const c = this.s.charCodeAt(this.pos);
    switch (c) {
      case 123: // {
        return this.object(depth + 1);
      case 91: // [
        return this.array(depth + 1);
      case 34: // "
        return this.string();
      case 116: // t
        return this.literal('true', true);
      case 102: // f
        return this.literal('false', false);
      case 110: // n
        return this.literal('null', null);
      default:
        if (c === 45 || (c >= 48 && c <= 57)) return this.number();
        return this.fail('unexpected character');
    }
  }

  literal<T>(word: string, v: T): T {
    if (!this.s.startsWith(word, this.pos)) this.fail('invalid literal');
    this.pos += word.length;
    return v;
  }

  object(depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) this.fail('nesting too deep');
    const out: Record<string, unknown> = {};
    this.pos++;
    this.skipWs();
    if (this.s.charCodeAt(this.pos) === 125) {
      this.pos++;
      return out;
    }
    for (;;) {
      if (this.s.charCodeAt(this.pos) !== 34) this.fail('expected a string key');
      const key = this.string();
      this.skipWs();
      if (this.s.charCodeAt(this.pos) !== 58) this.fail('expected ":"');
      this.pos++;
      this.skipWs();
      const v = this.value(depth);
      if (Object.prototype.hasOwnProperty.call(out, key)) this.fail(`duplicate key "${key}"`);
      if (key === '__proto__') {
        Object.defineProperty(out, key, {
          value: v,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else {
        out[key] = v;
      }
      this.skipWs();
      const c = this.s.charCodeAt(this.pos++);
      if (c === 44) {
        this.skipWs();
        continue;
      }
      if (c === 125) return out;
      this.pos--;
      this.fail('expected "," or "}"');
    }
  }

  array(depth: number): unknown[] {
    if (depth > MAX_DEPTH) this.fail('nesting too deep');
    const out: unknown[] = [];
    this.pos++;
    this.skipWs();
    if (this.s.charCodeAt(this.pos) === 93) {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth));
      this.skipWs();
      const c = this.s.charCodeAt(this.pos++);
      if (c === 44) {
        this.skipWs();
        continue;
      }
      if (c === 93) return out;
      this.pos--;
      this.fail('expected "," or "]"');
    }
  }

  string(): string {
    const s = this.s;
    const start = ++this.pos;
    // Fast path: no escapes and no control characters.
    let i = start;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 34) {
        this.pos = i + 1;
        return s.slice(start, i);
      }
      if (c === 92) break;
      if (c < 32 || Number.isNaN(c)) {
        this.pos = i;
        this.fail(Number.isNaN(c) ? 'unterminated string' : 'control character in string');
      }
      i++;
    }
    return this.escapedString(start, i);
  }

  escapedString(start: number, firstEscape: number): string {
    const s = this.s;
    let out = s.slice(start, firstEscape);
    let i = firstEscape;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 34) {
        this.pos = i + 1;
        return out;
      }
      if (Number.isNaN(c)) {
        this.pos = i;
        this.fail('unterminated string');
      }
      if (c < 32) {
        this.pos = i;
        this.fail('control character in string');
      }
      if (c !== 92) {
        const next = s.indexOf('\\', i);
        const quote = s.indexOf('"', i);
        const end = next !== -1 && next < quote ? next : quote === -1 ? s.length : quote;
        for (let j = i; j < end; j++) {
          if (s.charCodeAt(j) < 32) {
            this.pos = j;
            this.fail('control character in string');
          }
        }
        out += s.slice(i, end);
        i = end;
        continue;
      }
      const e = s.charCodeAt(i + 1);
      i += 2;
      switch (e) {
        case 34:
          out += '"';
          break;
        case 92:
          out += '\\';
          break;
        case 47:
          out += '/';
          break;
        case 98:
          out += '\b';
          break;
        case 102:
          out += '\f';
          break;
        case 110:
          out += '\n';
          break;
        case 114:
          out += '\r';
          break;
        case 116:
          out += '\t';
          break;
        case 117: {
          const hex = s.slice(i, i + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
            this.pos = i;
            this.fail('invalid \\u escape');
          }
          const unit = parseInt(hex, 16);
          i += 4;
          if (unit >= 0xd800 && unit <= 0xdfff) {
            // A UTF-16 surrogate must come as a high + low pair, else it is no character at all.
            const low = s.slice(i, i + 6);
            const lowUnit = /^\\u[dD][c-fC-F][0-9a-fA-F]{2}$/.test(low)
              ? parseInt(low.slice(2), 16)
              : 0;
            if (unit >= 0xdc00 || lowUnit === 0) {
              this.pos = i - 6;
              this.fail('lone UTF-16 surrogate in \\u escape');
            }
            out += String.fromCharCode(unit, lowUnit);
            i += 6;
            break;
          }
          out += String.fromCharCode(unit);
          break;
        }
        default:
          this.pos = i - 1;
          this.fail('invalid escape');
      }
    }
  }

  number(): number {
    const s = this.s;
    const start = this.pos;
    let i = start;
    const negative = s.charCodeAt(i) === 45;
    if (negative) i++;
    const intStart = i;
    let c = s.charCodeAt(i);
    if (c === 48) {
      i++;
    } else if (c >= 49 && c <= 57) {
      while ((c = s.charCodeAt(i)) >= 48 && c <= 57) i++;
    } else {
      this.pos = i;
      this.fail('invalid number');
    }
    const intEnd = i;
    let isInteger = true;
    if (s.charCodeAt(i) === 46) {
      isInteger = false;
      i++;
      const fracStart = i;
      while ((c = s.charCodeAt(i)) >= 48 && c <= 57) i++;
      if (i === fracStart) {
        this.pos = i;
        this.fail('invalid number');
      }
    }
    c = s.charCodeAt(i);
    if (c === 101 || c === 69) {
      isInteger = false;
      i++;
      c = s.charCodeAt(i);
      if (c === 43 || c === 45) i++;
      const expStart = i;
      while ((c = s.charCodeAt(i)) >= 48 && c <= 57) i++;
      if (i === expStart) {
        this.pos = i;
        this.fail('invalid number');
      }
    }
    this.pos = i;
    const value = Number(s.slice(start, i));
    if (!Number.isFinite(value)) this.fail('number out of range');
    if (isInteger && intEnd - intStart >= 19) {
      return bumpIfOutOfRange(s.slice(intStart, intEnd), negative, value);
    }
    return value;
  }
}
