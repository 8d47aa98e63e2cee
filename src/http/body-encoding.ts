import { gunzip } from 'node:zlib';
import { AppError } from '../errors/app-error.js';

/**
 * Content codings of request bodies. Only routes that declare `gzipBody` (the node report
 * routes) take gzip; everything else takes unencoded bodies only. Such routes say so in every
 * answer with `Accept-Encoding: gzip` (RFC 7694 §3), which is how the agent learns it may
 * compress: a server that does not say so keeps getting plain JSON.
 */
export const ACCEPTS_GZIP_HEADERS: Readonly<Record<string, string>> = { 'accept-encoding': 'gzip' };

export type BodyCoding = 'identity' | 'gzip' | 'unsupported';

/** The Content-Encoding of a request: absent or identity, gzip (x-gzip), or anything else. */
export function bodyCoding(header: string | string[] | undefined): BodyCoding {
  if (header === undefined) return 'identity';
  if (Array.isArray(header)) return 'unsupported';
  const coding = header.trim().toLowerCase();
  if (coding === '' || coding === 'identity') return 'identity';
  return coding === 'gzip' || coding === 'x-gzip' ? 'gzip' : 'unsupported';
}

/** 415 for a content coding the route does not take, naming the one it does (if any). */
export function unsupportedCoding(acceptsGzip: boolean): AppError {
  return new AppError(
    'unsupported_media_type',
    acceptsGzip
      ? 'Content-Encoding must be gzip or absent'
      : 'Content-Encoding is not supported here; send the body unencoded',
    acceptsGzip ? { headers: { ...ACCEPTS_GZIP_HEADERS } } : undefined,
  );
}

/**
 * Decodes a gzip body with zlib's asynchronous API (the inflating runs on the libuv thread
 * pool, not on the HTTP thread). The decoded size is capped at the route's body limit: a
 * larger result is 413 like a large plain body, and the inflater stops there, so a small
 * "gzip bomb" costs no more memory than the limit. A stream that is not valid gzip is 400.
 */
export function gunzipBody(body: Buffer, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    gunzip(body, { maxOutputLength: limit }, (err, out) => {
      if (!err) {
        resolve(out);
        return;
      }
      reject(
        (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE'
          ? new AppError('body_too_large', 'the decompressed request body is too large')
          : new AppError('invalid_request', 'the request body is not a valid gzip stream'),
      );
    });
  });
}
