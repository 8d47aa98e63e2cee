import { describe, expect, it } from 'vitest';
import { tagsFromPatch, tagsFromStore } from '../../../src/domain/nodes/tags.js';
import { AppError } from '../../../src/errors/app-error.js';

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as AppError).code;
  }
  return undefined;
};

describe('tags in a patch', () => {
  it('trims, drops empty and repeated items, keeps order', () => {
    expect(tagsFromPatch([' web ', '', 'db', 'web', '  ', 'db ', 'édge'])).toEqual([
      'web',
      'db',
      'édge',
    ]);
    expect(tagsFromPatch([])).toEqual([]);
  });

  it('counts the limit after dropping duplicates', () => {
    const tags = Array.from({ length: 32 }, (_, i) => `t${i}`);
    expect(tagsFromPatch([...tags, 't0', ' t1 ', ''])).toHaveLength(32);
    expect(codeOf(() => tagsFromPatch([...tags, 't32']))).toBe('invalid_tags');
  });

  it('allows 64 characters counted as code points, not 65', () => {
    expect(tagsFromPatch(['😀'.repeat(64)])).toEqual(['😀'.repeat(64)]);
    expect(codeOf(() => tagsFromPatch(['x'.repeat(65)]))).toBe('invalid_tags');
  });

  it.each([
    ['null', null],
    ['a string', 'web'],
    ['an object', { a: 'b' }],
    ['a number item', ['ok', 1]],
    ['a control character', ['a\u0007b']],
  ])('rejects %s with invalid_tags', (_name, value) => {
    expect(codeOf(() => tagsFromPatch(value))).toBe('invalid_tags');
  });
});

describe('stored tags', () => {
  it('drops invalid, repeated and excess items with a warning', () => {
    const warnings: string[] = [];
    const stored = JSON.stringify([
      'ok',
      5,
      'x'.repeat(65),
      'ok',
      'bad\u0001',
      ...Array.from({ length: 40 }, (_, i) => `t${i}`),
    ]);
    const tags = tagsFromStore(stored, (m) => warnings.push(m));
    expect(tags).toHaveLength(32);
    expect(tags[0]).toBe('ok');
    expect(tags[1]).toBe('t0');
    expect(warnings).toHaveLength(1);
  });

  it('reads clean tags silently', () => {
    const warnings: string[] = [];
    expect(tagsFromStore('["a","b"]', (m) => warnings.push(m))).toEqual(['a', 'b']);
    expect(warnings).toEqual([]);
  });

  it.each(['{not json', '{"a":1}', '"web"', 'null'])('reads %s as [] with a warning', (raw) => {
    const warnings: string[] = [];
    expect(tagsFromStore(raw, (m) => warnings.push(m))).toEqual([]);
    expect(warnings).toHaveLength(1);
  });
});
