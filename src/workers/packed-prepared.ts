import type { Prepared } from '../domain/ingest/ingest-core.js';
import { docsLength, writeDocs } from '../store/postgres/array-params.js';

/**
 * Moves the large strings of a prepared PostgreSQL batch out of the JS heap before it crosses
 * to the HTTP thread: each report's rendered view body (`bodyBytes`, as packed-views.ts does
 * for SQLite) and its four projection documents (`current.docs`, in the engine's format) are
 * encoded into one buffer of the batch, which is transferred. Before, about 9 KB of strings per
 * report were copied onto the HTTP thread's heap, lived there until COMMIT (long enough to be
 * promoted) and were encoded to UTF-8 again there, for the view arena and for the statement.
 * The batch is changed in place (it is this thread's own); returns the buffer to transfer.
 */
export function packPrepared(prepared: readonly Prepared[]): ArrayBuffer | undefined {
  const docsOf = (p: Prepared & { ok: true }) => {
    const c = p.write.current;
    if (c.runtimeJson === undefined) return undefined;
    return [c.runtimeJson, c.smartJson, c.thermalJson, c.pressureJson];
  };
  let total = 0;
  for (const p of prepared) {
    if (!p.ok) continue;
    if ('bodyJson' in p.view) total += Buffer.byteLength(p.view.bodyJson);
    const docs = docsOf(p);
    if (docs) total += docsLength(docs);
  }
  if (total === 0) return undefined;
  // Its own allocation (never a pool slice), so it can be transferred.
  const buf = Buffer.allocUnsafeSlow(total);
  let at = 0;
  for (const p of prepared) {
    if (!p.ok) continue;
    if ('bodyJson' in p.view) {
      const end = at + buf.write(p.view.bodyJson, at, 'utf8');
      p.view = { bodyBytes: buf.subarray(at, end) };
      at = end;
    }
    const docs = docsOf(p);
    if (!docs) continue;
    const end = writeDocs(docs, buf, at);
    const c = p.write.current;
    c.docs = buf.subarray(at, end);
    delete c.runtimeJson;
    c.smartJson = c.thermalJson = c.pressureJson = null;
    at = end;
  }
  return buf.buffer;
}
