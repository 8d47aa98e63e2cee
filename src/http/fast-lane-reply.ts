import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/**
 * Answers written by fast lanes (see FastLane in route-def.ts), with exactly the headers the
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
