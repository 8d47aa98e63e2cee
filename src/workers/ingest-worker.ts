import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import type { CoreResult, RawReport } from '../domain/ingest/ingest-core.js';
import { systemClock } from '../platform/clock.js';
import type { EngineRequest } from '../store/sqlite/engine-runner.js';
import { createIngestHost } from './ingest-host.js';

/**
 * The ingest thread: owns the second SQLite connection and runs the report pipeline and the
 * metrics maintenance tasks. Messages in: {reports: [...]} (one per HTTP-thread tick),
 * {id, task} and {id, close}. Out: {results: [...]} (one per tick here), {id, ok, value|error}.
 */
export type ToWorker =
  | { reports: Array<RawReport & { id: number }> }
  | { id: number; task: Exclude<EngineRequest, { type: 'batch' }> }
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

let outbox: Array<{ id: number; result: CoreResult }> = [];
let flushing = false;
function reply(id: number, result: CoreResult): void {
  outbox.push({ id, result });
  if (flushing) return;
  flushing = true;
  setImmediate(() => {
    flushing = false;
    const results = outbox;
    outbox = [];
    port.postMessage({ results } satisfies FromWorker);
  });
}

function failure(err: unknown): CoreResult {
  return {
    ok: false,
    code: 'service_unavailable',
    message: 'the report could not be stored',
    detail: err instanceof Error ? err.message : String(err),
  };
}

port.on('message', (msg: ToWorker) => {
  if ('reports' in msg) {
    for (const r of msg.reports) {
      host.core.process(r).then(
        (result) => reply(r.id, result),
        (err: unknown) => reply(r.id, failure(err)),
      );
    }
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
    void host.writer.drain().then(() => {
      db.close();
      port.postMessage({ id: msg.id, ok: true, value: null } satisfies FromWorker);
      port.close();
    });
  }
});
