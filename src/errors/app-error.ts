import { ERROR_CODES, type ErrorCode } from './codes.js';

/** A failure with a catalogued code; the HTTP layer turns it into `{code, message}`. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message?: string,
    options?: { cause?: unknown; headers?: Record<string, string> },
  ) {
    super(message ?? ERROR_CODES[code].message, { cause: options?.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.headers = options?.headers;
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
