import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import type { Logger } from '../../platform/logger.js';
import { EngineRunner, type EngineRequest, type EngineResponse } from './engine-runner.js';
import { MetricsEngine } from './metrics-engine.js';

/** How the main thread reaches the metrics engine. */
export interface EngineTransport {
  request<R extends EngineRequest>(req: R): Promise<EngineResponse<R>>;
  close(): Promise<void>;
}

/** Engine on the main connection: for in-memory databases (tests), where no second connection can exist. */
export function inlineTransport(db: BetterSqlite3.Database, now: () => number): EngineTransport {
  const runner = new EngineRunner(new MetricsEngine(db, now));
  return {
    request: (req) => runner.handle(req),
    close: async () => {},
  };
}

export class EngineUnavailableError extends Error {
  override name = 'EngineUnavailableError';
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

/**
 * The built JS worker file, or, when running from TypeScript sources (dev, tests), a bootstrap
 * that installs the tsx loader inside the worker first: loader flags are not inherited by
 * worker threads on Node 20.
 */
function newWorker(path: string): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./metrics-worker.js', import.meta.url), { workerData: { path } });
  }
  const tsxDir = dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const api = pathToFileURL(join(tsxDir, 'dist/esm/api/index.mjs')).href;
  const entry = new URL('./metrics-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(boot, { eval: true, workerData: { path } });
}

/**
 * Engine on a worker thread with its own connection to the database file. A worker that dies
 * fails the requests it held (their reports answer 503) and is replaced on the next request.
 */
export function workerTransport(path: string, log: Logger): EngineTransport {
  let worker: Worker | undefined;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let closing = false;

  function start(): Worker {
    const w = newWorker(path);
    w.on('message', (msg: Reply) => {
      const waiter = waiting.get(msg.id);
      if (!waiter) return;
      waiting.delete(msg.id);
      if (msg.ok) waiter.resolve(msg.value);
      else waiter.reject(new EngineUnavailableError(msg.error));
    });
    w.on('error', (err) => log.error({ err }, 'metrics writer thread failed'));
    w.on('exit', (code) => {
      if (worker === w) worker = undefined;
      if (!closing) log.error({ code }, 'metrics writer thread exited');
      for (const [id, waiter] of waiting) {
        waiting.delete(id);
        waiter.reject(new EngineUnavailableError('metrics writer thread exited'));
      }
    });
    return w;
  }

  function send(msg: object): Promise<unknown> {
    if (!worker) worker = start();
    const id = nextId++;
    const w = worker;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      w.postMessage({ id, ...msg });
    });
  }

  return {
    request: <R extends EngineRequest>(req: R) => send({ req }) as Promise<EngineResponse<R>>,
    async close() {
      if (!worker) return;
      closing = true;
      const w = worker;
      const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
      await send({ close: true }).catch(() => {});
      await exited;
    },
  };
}
