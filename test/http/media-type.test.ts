import { describe, expect, it } from 'vitest';
import { isJsonMediaType } from '../../src/http/media-type.js';

describe('JSON media type', () => {
  it.each([
    'application/json',
    'Application/JSON',
    'application/json; charset=utf-8',
    'application/json;charset="utf-8"',
    'application/json ; charset=utf-8 ; foo=bar',
  ])('accepts %s', (v) => expect(isJsonMediaType(v)).toBe(true));

  it.each([
    undefined,
    '',
    'text/plain',
    'application/jsonx',
    'application/json+x',
    'application/json; charset',
    'application/json; =utf-8',
    'application/json; charset="unterminated',
    'application/json;;',
    'application/*',
  ])('rejects %s', (v) => expect(isJsonMediaType(v)).toBe(false));
});
