import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import type { CoreResult, RawReport } from '../domain/ingest/ingest-core.js';
import { systemClock } from '../platform/clock.js';
import type { EngineRequest } from '../store/sqlite/engine-runner.js';
import { createIngestHost } from './ingest-host.js';

/**
 * The ingest thread: owns the second SQLite connection and runs the report pipeline and the
 * metrics maintenance tasks. Messages in: {reports: [...]} (one batch from the HTTP thread),
 * {id, task} and {id, close}. Out: {results: [...]} (one per batch), {id, ok, value|error}.
 */
export type ToWorker =
  | { reports: Array<RawReport & { id: number }> }
  | { id: number; task: EngineRequest }
  | { id: number; close: true };

export type FromWorker =
  | { results: Array<{ id: number; result: CoreResult }> }
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string };

if (!parentPort) throw new Error('ingest-worker must run as a worker thread');
const port = parentPort;

const { path } = workerData as { path: string };
const db = new BetterSqlite3(path);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = 5000');
db.pragma('foreign_keys = ON');
// Inserts land on a different leaf page per node; beyond a few MB the cache only adds memory.
db.pragma('cache_size = -8000');
const host = createIngestHost(db, () => systemClock.now());

port.on('message', (msg: ToWorker) => {
  if ('reports' in msg) {
    // One message in, one transaction, one message out: answers leave as soon as they are
    // durable, while the HTTP thread is already gathering the next batch.
    const results = host.core.processBatch(msg.reports);
    port.postMessage({
      results: msg.reports.map((r, i) => ({ id: r.id, result: results[i]! })),
    } satisfies FromWorker);
  } else if ('task' in msg) {
    host.runner.handle(msg.task).then(
      (value) => port.postMessage({ id: msg.id, ok: true, value } satisfies FromWorker),
      (err: unknown) =>
        port.postMessage({
          id: msg.id,
          ok: false,
          error: err instanceof Error ? err.message : String(err),
        } satisfies FromWorker),
    );
  } else {
    db.close();
    port.postMessage({ id: msg.id, ok: true, value: null } satisfies FromWorker);
    port.close();
  }
});
