import { fdatasync, openSync, fstatSync, statSync, closeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { RenderFacts } from '../domain/front/render.js';
import { notStored, type CoreResult, type RawReport } from '../domain/ingest/ingest-core.js';
import { systemClock } from '../platform/clock.js';
import type { EngineRequest } from '../store/sqlite/engine-runner.js';
import { openSqliteConnection } from '../store/sqlite/connection.js';
import { createIngestHost } from './ingest-host.js';
import { WriteLock } from './write-lock.js';

/**
 * The ingest thread: owns the second SQLite connection and runs the report pipeline and the
 * metrics maintenance tasks. Messages in: {reports: [...]} (one batch from the HTTP thread),
 * {facts: [...]} (render facts of nodes), {id, task} and {id, close}. Out: {ready} (once, when
 * loaded), {results: [...]} (one per batch), {id, ok, value|error}.
 */
export type ToWorker =
  | { reports: Array<RawReport & { id: number }> }
  | { facts: Array<[number, RenderFacts | null]> }
  | { id: number; task: EngineRequest }
  | { id: number; close: true };

export type FromWorker =
  | { ready: true }
  | { results: Array<{ id: number; result: CoreResult }> }
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string };

if (!parentPort) throw new Error('ingest-worker must run as a worker thread');
const port = parentPort;

export interface IngestWorkerData {
  path: string;
  staleAfterSec: number;
  /** This thread's share of the nodes, and the write slot it shares with the other shares. */
  shard: number;
  writeLock?: SharedArrayBuffer;
  maxDevicesPerNode?: number;
}

const { path, staleAfterSec, shard, writeLock, maxDevicesPerNode } = workerData as IngestWorkerData;
// Commits write the WAL without waiting for the disk; walSync below makes them durable before
// anyone is answered, on a libuv thread, so this thread decodes the next batch meanwhile.
const db = openSqliteConnection(path, 'ingest');
const host = createIngestHost(
  db,
  () => systemClock.now(),
  staleAfterSec,
  writeLock ? new WriteLock(writeLock, shard) : undefined,
  maxDevicesPerNode,
);

type Answer = { id: number; result: CoreResult };

/**
 * Group fsync of the WAL: answers of committed batches wait for the next fdatasync that starts
 * after their commit (one in flight at a time, so every sync covers all batches before it).
 * Same guarantee as synchronous=FULL — a 200 means the report survives power loss — without
 * blocking this thread on the disk.
 */
const walSync = (() => {
  const walPath = `${path}-wal`;
  let fd: number | undefined;
  let syncing = false;
  let waiting: Answer[] = [];
  const idle: Array<() => void> = [];
  const walFd = (): number => {
    // The WAL is created on first write and may be replaced while no connection is open.
    if (fd !== undefined && fstatSync(fd).ino === statSync(walPath).ino) return fd;
    if (fd !== undefined) closeSync(fd);
    fd = openSync(walPath, 'r');
    return fd;
  };
  const start = (): void => {
    const answers = waiting;
    waiting = [];
    syncing = true;
    const done = (err: Error | null): void => {
      syncing = false;
      port.postMessage({
        results: err
          ? answers.map(({ id }) => ({ id, result: notStored(`WAL sync failed: ${err.message}`) }))
          : answers,
      } satisfies FromWorker);
      if (waiting.length > 0) start();
      else for (const resolve of idle.splice(0)) resolve();
    };
    try {
      fdatasync(walFd(), done);
    } catch (err) {
      done(err as Error);
    }
  };
  return {
    after(answers: Answer[]): void {
      waiting.push(...answers);
      if (!syncing) start();
    },
    /** Resolves once every answer handed over so far has been sent. */
    idle(): Promise<void> {
      if (!syncing && waiting.length === 0) return Promise.resolve();
      return new Promise((resolve) => idle.push(resolve));
    },
  };
})();

port.on('message', (msg: ToWorker) => {
  if ('reports' in msg) {
    // One message in, one transaction; the answers leave once the WAL is on disk, while this
    // thread already works on the next batch.
    const results = host.core.processBatch(msg.reports);
    walSync.after(msg.reports.map((r, i) => ({ id: r.id, result: results[i]! })));
  } else if ('facts' in msg) {
    for (const [nodeId, facts] of msg.facts) host.core.setFacts(nodeId, facts);
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
    void walSync.idle().then(() => {
      db.close();
      port.postMessage({ id: msg.id, ok: true, value: null } satisfies FromWorker);
      port.close();
    });
  }
});

port.postMessage({ ready: true } satisfies FromWorker);
