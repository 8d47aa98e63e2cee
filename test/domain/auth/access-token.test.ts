import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AccessTokenCodec } from '../../../src/domain/auth/access-token.js';

const codec = new AccessTokenCodec(randomBytes(32));
const claims = { sid: 'session-1', exp: 1_900_000_000_000, ver: 3 };

describe('access tokens', () => {
  it('verifies what it signed', () => {
    expect(codec.verify(codec.sign(claims))).toEqual(claims);
  });

  it.each([
    ['a trailing character', (t: string) => `${t}A`],
    ['trailing junk', (t: string) => `${t}!!junk`],
    ['padding', (t: string) => `${t}=`],
    ['a second dot', (t: string) => `${t}.x`],
    ['a space', (t: string) => `${t} `],
    [
      'a changed last signature character',
      (t: string) => `${t.slice(0, -1)}${t.endsWith('B') ? 'C' : 'B'}`,
    ],
    ['junk inside the body', (t: string) => `${t.slice(0, 3)}*${t.slice(3)}`],
    ['an empty body', (t: string) => t.slice(t.indexOf('.'))],
  ])('refuses a token with %s', (_name, mangle) => {
    expect(codec.verify(mangle(codec.sign(claims)))).toBeUndefined();
  });

  it('refuses a token signed with another key', () => {
    expect(new AccessTokenCodec(randomBytes(32)).verify(codec.sign(claims))).toBeUndefined();
  });
});
