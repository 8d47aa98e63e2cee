import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { AppError } from '../errors/app-error.js';
import { errorBody } from './server.js';

/**
 * Answers written by fast lanes (see FastLane in server.ts), with exactly the headers the
 * Fastify path sends for the same answer: JSON type, length, and no-store on /api paths.
 */
export function writeJson(
  res: ServerResponse,
  status: number,
  body: string | Buffer,
  headers?: Readonly<Record<string, string>>,
): void {
  res.writeHead(status, jsonHeaders(body, headers));
  res.end(body);
}

/** The complete headers writeJson sends, for lanes that build them once and reuse them. */
export function jsonHeaders(
  body: string | Buffer,
  headers?: Readonly<Record<string, string>>,
): OutgoingHttpHeaders {
  return {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': typeof body === 'string' ? Buffer.byteLength(body) : body.length,
    'cache-control': 'no-store',
  };
}

export function writeAppError(res: ServerResponse, err: AppError): void {
  writeJson(res, err.status, errorBody(err.code, err.message), err.headers);
}
