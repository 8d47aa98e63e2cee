import { describe, expect, it } from 'vitest';
import { formatRfc3339Seconds, parseRfc3339 } from '../../src/platform/rfc3339.js';

describe('formatRfc3339Seconds', () => {
  it('writes UTC with second precision, truncating milliseconds, for any sequence of calls', () => {
    const t = Date.UTC(2026, 10, 21, 12, 0, 5, 999);
    expect(formatRfc3339Seconds(t)).toBe('2026-11-21T12:00:05Z');
    expect(formatRfc3339Seconds(t - 999)).toBe('2026-11-21T12:00:05Z');
    expect(formatRfc3339Seconds(t + 1)).toBe('2026-11-21T12:00:06Z');
    expect(formatRfc3339Seconds(t)).toBe('2026-11-21T12:00:05Z');
    expect(formatRfc3339Seconds(-1)).toBe('1969-12-31T23:59:59Z');
  });
});

describe('parseRfc3339', () => {
  it('reads agent timestamps with fractions and offsets', () => {
    expect(parseRfc3339('2026-11-21T12:00:05.123456789Z')).toBe(
      Date.UTC(2026, 10, 21, 12, 0, 5, 123),
    );
    expect(parseRfc3339('2026-11-21T13:00:05+01:00')).toBe(Date.UTC(2026, 10, 21, 12, 0, 5));
    expect(parseRfc3339('2026-02-30T00:00:00Z')).toBeUndefined();
  });
});

/** The grammar as a regular expression: what the character-code reader must agree with. */
const GRAMMAR =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

function reference(text: string): number | undefined {
  const m = GRAMMAR.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((k) => Number(m[k]));
  const leap = (y! % 4 === 0 && y! % 100 !== 0) || y! % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo! - 1];
  if (days === undefined || d! < 1 || d! > days || h! > 23 || mi! > 59 || s! > 59) return undefined;
  if (m[9] && (Number(m[10]) > 23 || Number(m[11]) > 59)) return undefined;
  const offset = m[9] ? (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11])) : 0;
  const ms = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  const at = new Date(0);
  at.setUTCFullYear(y!, mo! - 1, d);
  at.setUTCHours(h!, mi, s, ms);
  return at.getTime() - offset * 60_000;
}

describe('parseRfc3339 against the grammar', () => {
  it('agrees on valid timestamps and on every one-character change of them', () => {
    let seed = 42;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pad = (v: number, w = 2) => String(v).padStart(w, '0');
    const alphabet = '0123456789-:.+TtZz x\u0660';
    let checked = 0;
    for (let k = 0; k < 3000; k++) {
      const frac = rnd(3) === 0 ? '' : '.' + '123456789012'.slice(0, 1 + rnd(11));
      const zone = [
        'Z',
        'z',
        `+${pad(rnd(25))}:${pad(rnd(61))}`,
        `-${pad(rnd(24))}:${pad(rnd(60))}`,
      ][rnd(4)];
      const text =
        `${pad(rnd(3000), 4)}-${pad(rnd(14))}-${pad(rnd(32))}${rnd(2) ? 'T' : 't'}` +
        `${pad(rnd(25))}:${pad(rnd(61))}:${pad(rnd(61))}${frac}${zone}`;
      const variants = [text];
      for (let v = 0; v < 4; v++) {
        const at = rnd(text.length + 1);
        const ch = alphabet[rnd(alphabet.length)]!;
        const op = rnd(3);
        variants.push(
          op === 0
            ? text.slice(0, at) + ch + text.slice(at + 1)
            : op === 1
              ? text.slice(0, at) + ch + text.slice(at)
              : text.slice(0, at) + text.slice(at + 1),
        );
      }
      for (const t of variants) {
        expect(parseRfc3339(t), t).toBe(reference(t));
        checked++;
      }
    }
    expect(checked).toBe(15000);
  });
});
