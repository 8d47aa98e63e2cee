import type { ServerResponse } from 'node:http';
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
  headers?: Record<string, string>,
): void {
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': typeof body === 'string' ? Buffer.byteLength(body) : body.length,
    'cache-control': 'no-store',
  });
  res.end(body);
}

export function writeAppError(res: ServerResponse, err: AppError): void {
  writeJson(res, err.status, errorBody(err.code, err.message), err.headers);
}
