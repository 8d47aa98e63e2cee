import { describe, expect, it } from 'vitest';
import {
  JsonSyntaxError,
  parseStrictJson,
  parseStrictJsonSlow,
} from '../../src/protocol/strict-json.js';
import { agentReport } from '../support/agent-payloads.js';

/** Both readers must agree on every input: same value, or both reject. */
function same(text: string): void {
  let fast: unknown;
  let slow: unknown;
  let fastErr: unknown;
  let slowErr: unknown;
  try {
    fast = parseStrictJson(text);
  } catch (err) {
    fastErr = err;
  }
  try {
    slow = parseStrictJsonSlow(text);
  } catch (err) {
    slowErr = err;
  }
  expect(fastErr === undefined, text).toBe(slowErr === undefined);
  if (fastErr) expect(fastErr).toBeInstanceOf(JsonSyntaxError);
  else expect(fast).toStrictEqual(slow);
}

describe('strict JSON fast path (JSON.parse + member count)', () => {
  it('reads realistic reports exactly like the full reader', () => {
    for (let seq = 0; seq < 20; seq++) same(JSON.stringify(agentReport({ seq })));
  });

  it.each([
    ['a plain duplicate', '{"a":1,"a":2}'],
    ['a nested duplicate', '{"x":[{"k":1},{"k":1,"k":2}]}'],
    ['a duplicate beside an escaped quote-colon inside a string', '{"a":"x\\":","a":1}'],
    ['a duplicate with whitespace before a colon', '{"a" :1,"a":2}'],
    ['a duplicate with a newline before a colon', '{"a"\n:1,"b":{"a":1,"a":2}}'],
    ['a duplicate __proto__', '{"__proto__":1,"__proto__":2}'],
    ['a duplicate integer-like key', '{"1":{"a":1},"0":{"b":2},"1":3}'],
  ])('rejects %s', (_name, text) => {
    expect(() => parseStrictJson(text)).toThrow(JsonSyntaxError);
    same(text);
  });

  it.each([
    ['pretty-printed JSON', JSON.stringify({ a: 1, b: { c: [1, 2, { d: 'x' }] } }, null, 2)],
    ['strings holding quote-colon pairs', '{"a":"\\":\\":","b":"c:d","e":"\\\\"}'],
    ['keys ending in a backslash', '{"a\\\\":1,"b":2}'],
    ['integer-like keys', '{"2":1,"1":2,"x":{"10":[],"9":{}}}'],
    ['__proto__ as a key', '{"__proto__":{"polluted":true}}'],
    ['long digit strings in values', '{"serial":"12345678901234567890123"}'],
    ['19-digit integers', '{"n":9223372036854775807,"m":-9223372036854775809}'],
    ['large exponents', '{"x":1e308,"y":1.5e19}'],
    ['integers at the fast-path limit', '{"n":1000000000000000000,"m":[-999999999999999999]}'],
    ['a colon after whitespace inside a string', '{"a":"x :y","b":"\t:"}'],
    ['an infinite literal', '{"x":1e400}'],
    ['deep nesting at the limit', `${'['.repeat(256)}${']'.repeat(256)}`],
    ['deep nesting over the limit', `${'['.repeat(257)}${']'.repeat(257)}`],
    ['very deep nesting', `${'['.repeat(5000)}${']'.repeat(5000)}`],
    ['trailing data', '{"a":1} {"b":2}'],
    ['a raw control character', '{"a":"x\u0001"}'],
    ['an empty body', '  '],
    ['scalars', '"x"'],
  ])('agrees with the full reader on %s', (_name, text) => same(text));

  it('keeps __proto__ an own key on the fast path too', () => {
    const v = parseStrictJson('{"__proto__":{"polluted":true},"b":1}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(['__proto__', 'b']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
