/**
 * The body a worker thread is handed must be memory it can own: a disposable body that fills
 * its own allocation moves as it is; anything else (Fastify's buffers may be slices of a shared
 * pool) is copied to an exact-size buffer first.
 */
export function ownedBody(
  body: Uint8Array | undefined,
  disposable: boolean | undefined,
): Uint8Array | undefined {
  if (!body) return undefined;
  const own =
    disposable === true &&
    body.buffer instanceof ArrayBuffer &&
    body.byteOffset === 0 &&
    body.byteLength === body.buffer.byteLength;
  return own ? body : new Uint8Array(body);
}
