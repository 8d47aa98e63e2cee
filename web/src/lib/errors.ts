import { ApiError, NetworkError } from '../api/http';
import { s } from '../i18n';

/** Text for any failure: the code's meaning first, then the server's message, never blank. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) {
    return s.errors.byCode[err.code] ?? (err.message || s.errors.generic);
  }
  if (err instanceof NetworkError) return s.errors.network;
  if (err instanceof DOMException && err.name === 'TimeoutError') return s.errors.timeout;
  return s.errors.generic;
}

/** The server did not answer at all (down, unreachable, or too slow), as opposed to an error. */
export function isUnreachable(err: unknown): boolean {
  return (
    err instanceof NetworkError || (err instanceof DOMException && err.name === 'TimeoutError')
  );
}

export function isAbort(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'AbortError';
}

export function hasCode(err: unknown, code: string): boolean {
  return err instanceof ApiError && err.code === code;
}
