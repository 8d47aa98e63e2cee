import { describe, expect, it } from 'vitest';
import {
  parseStrictJson,
  parseStrictJsonBuffer,
  JsonSyntaxError,
} from '../../src/protocol/strict-json.js';

const bad = (text: string) => () => parseStrictJson(text);

describe('strict JSON reader', () => {
  it('parses what JSON.parse parses, identically', () => {
    const docs = [
      '{"a":1,"b":[true,false,null],"c":{"d":"e\\u00e9\\n\\"x\\""},"f":-1.5e-3,"g":0}',
      '[]',
      '{}',
      ' "plain" ',
      '123456789012',
      '{"nested":[[[[{"k":[1,2,3]}]]]],"s":"\\/\\b\\f\\r\\t\\\\"}',
      '{"unicode":"日本語 ☃ \\ud83d\\ude00"}',
    ];
    for (const doc of docs) expect(parseStrictJson(doc)).toStrictEqual(JSON.parse(doc));
  });

  it('rejects duplicate keys at any depth', () => {
    expect(bad('{"a":1,"a":2}')).toThrow(/duplicate key "a"/);
    expect(bad('{"x":{"a":1,"b":{"c":1,"c":1}}}')).toThrow(JsonSyntaxError);
    expect(bad('[{"k":1,"k":1}]')).toThrow(JsonSyntaxError);
  });

  it('rejects trailing data, empty input and malformed values', () => {
    for (const text of [
      '{} {}',
      '{}x',
      '',
      '   ',
      '{"a":1,}',
      '[1,]',
      '01',
      '1.',
      '.5',
      '+1',
      'tru',
      '{"a" 1}',
      "{'a':1}",
      '"unterminated',
      '"tab\there"',
      '"\\x"',
      '"\\u12G4"',
      'NaN',
      '1e400',
    ]) {
      expect(bad(text), text).toThrow(JsonSyntaxError);
    }
  });

  it('rejects invalid UTF-8', () => {
    expect(() => parseStrictJsonBuffer(Buffer.from([0x22, 0xff, 0x22]))).toThrow(/UTF-8/);
    expect(() => parseStrictJsonBuffer(Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]))).toThrow(
      /UTF-8/,
    );
    expect(parseStrictJsonBuffer(Buffer.from('"é"'))).toBe('é');
  });

  it('keeps __proto__ as an own key without touching the prototype', () => {
    const v = parseStrictJson('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps integer literals just beyond int64 and uint64 distinguishable', () => {
    const TWO_63 = 2 ** 63;
    const TWO_64 = 2 ** 64;
    expect(parseStrictJson('9223372036854775807')).toBe(TWO_63);
    expect(parseStrictJson('9223372036854775808')).toBeGreaterThan(TWO_63);
    expect(parseStrictJson('-9223372036854775808')).toBe(-TWO_63);
    expect(parseStrictJson('-9223372036854775809')).toBeLessThan(-TWO_63);
    expect(parseStrictJson('18446744073709551615')).toBe(TWO_64);
    expect(parseStrictJson('18446744073709551616')).toBeGreaterThan(TWO_64);
  });

  it('limits nesting depth', () => {
    expect(bad('['.repeat(300) + ']'.repeat(300))).toThrow(/too deep/);
  });
});
