import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../api/http';
import { en } from '../i18n/en';
import { errorText } from './errors';

describe('errorText', () => {
  it('explains known codes in the UI language', () => {
    expect(errorText(new ApiError(409, 'duplicate_secret', 'secret in use'))).toBe(
      en.errors.byCode.duplicate_secret,
    );
  });

  it('falls back to the server message for unknown codes', () => {
    expect(errorText(new ApiError(409, 'new_code', 'Server says why'))).toBe('Server says why');
    expect(errorText(new ApiError(500, 'new_code', ''))).toBe(en.errors.generic);
  });

  it('names network failures and timeouts', () => {
    expect(errorText(new NetworkError('fetch failed'))).toBe(en.errors.network);
    expect(errorText(new DOMException('t', 'TimeoutError'))).toBe(en.errors.timeout);
    expect(errorText(new Error('x'))).toBe(en.errors.generic);
  });
});
