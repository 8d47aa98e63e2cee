import type { CoreResult } from '../domain/ingest/ingest-core.js';

/**
 * Moves the rendered view bodies of a batch's answers out of the JS heap: every `bodyJson` is
 * encoded into one buffer of the batch and its answer carries a view of those bytes instead
 * (the answers are changed in place; they are this thread's own). The answers wait for the
 * batch's fsync before they leave, and a few kilobytes of string per report was most of what
 * survived this thread's young-generation collections; the buffer is then transferred, so the
 * HTTP thread copies bytes into the view's slot instead of receiving a string and encoding it
 * again. Returns the buffer to transfer, if any body was packed.
 */
export function packViews(results: readonly CoreResult[]): ArrayBuffer | undefined {
  let total = 0;
  for (const r of results)
    if (r.ok && 'bodyJson' in r.view) total += Buffer.byteLength(r.view.bodyJson);
  if (total === 0) return undefined;
  // Its own allocation (never a pool slice), so it can be transferred.
  const buf = Buffer.allocUnsafeSlow(total);
  let at = 0;
  for (const r of results) {
    if (!r.ok || !('bodyJson' in r.view)) continue;
    const end = at + buf.write(r.view.bodyJson, at, 'utf8');
    r.view = { bodyBytes: buf.subarray(at, end) };
    at = end;
  }
  return buf.buffer;
}
