import type { Worker } from 'node:worker_threads';
import { notStored, type CoreResult, type RawReport } from '../domain/ingest/ingest-core.js';
import { systemClock } from '../platform/clock.js';
import type { Logger } from '../platform/logger.js';
import type { RetentionRunResult, RollupRunResult } from '../store/ports.js';
import type { EngineRequest, TrafficStepResult } from '../store/sqlite/engine-runner.js';
import type { IngestBackend } from './ingest-backend-port.js';
import { WriteLock } from './write-lock.js';
import type { FromWorker, IngestWorkerData, ToWorker } from './ingest-worker.js';
import type { RenderFacts } from '../domain/front/render.js';
import { BatchQueue, INGEST_BATCH_SIZE } from './batch-queue.js';
import { ownedBody } from './owned-body.js';
import { spawnWorker } from './spawn-worker.js';
import { noteOpenLogIo } from './open-log-io.js';
import { ingestTraceOn, traceAnswers, traceNow, traceWindow } from './ingest-trace.js';

function newWorker(workerData: IngestWorkerData): Worker {
  return spawnWorker('ingest-worker', workerData);
}

interface Waiter {
  resolve: (v: never) => void;
  reject: (e: Error) => void;
}

/**
 * HTTP-thread side of the ingest worker. Reports handed over in one tick (a BatchQueue batch)
 * travel in one message (their bodies transferred, not copied) and come back in one. A worker that dies answers what
 * it held with 503 and is replaced on the next request.
 */
export function startIngestWorker(
  path: string,
  log: Logger,
  now: () => number,
  staleAfterSec: number,
  share: Omit<IngestWorkerData, 'path' | 'staleAfterSec'> = { shard: 0 },
): IngestBackend {
  let worker: Worker | undefined;
  let nextId = 1;
  const reports = new Map<number, (r: CoreResult) => void>();
  const tasks = new Map<number, Waiter>();
  /** With DASH_INGEST_TRACE: when each report was queued and when its batch left. */
  const traced = new Map<number, [number, number]>();
  const queue = new BatchQueue<{ report: RawReport & { id: number }; body?: ArrayBuffer }>(
    INGEST_BATCH_SIZE,
    (batch) => {
      sendFacts();
      const msg: ToWorker = { reports: batch.map((q) => q.report) };
      const transfer: ArrayBuffer[] = [];
      for (const q of batch) if (q.body) transfer.push(q.body);
      if (ingestTraceOn) {
        const posted = traceNow();
        for (const q of batch) {
          const times = traced.get(q.report.id);
          if (times) times[1] = posted;
        }
      }
      current().postMessage(msg, transfer);
    },
  );
  let closing = false;
  const idle: Array<() => void> = [];
  // Replayed into a replacement worker, so it renders views as the one before did.
  const facts = new Map<number, RenderFacts>();
  // Changes not yet sent: they leave together (at start, the whole fleet in one message rather
  // than one per node), and always before the next batch of reports.
  let factsOut: Array<[number, RenderFacts | null]> = [];
  function sendFacts(): void {
    if (factsOut.length === 0) return;
    const changes = factsOut;
    factsOut = [];
    current().postMessage({ facts: changes } satisfies ToWorker);
  }

  function settleIdle(): void {
    if (reports.size === 0 && queue.length === 0) for (const done of idle.splice(0)) done();
  }

  let loaded: Promise<void> = Promise.resolve();

  function start(): Worker {
    const w = newWorker({ path, staleAfterSec, ...share });
    if (facts.size > 0) w.postMessage({ facts: [...facts] } satisfies ToWorker);
    let markLoaded: () => void = () => {};
    loaded = new Promise<void>((resolve) => (markLoaded = resolve));
    w.on('message', (msg: FromWorker) => {
      if ('ready' in msg) {
        markLoaded();
        return;
      }
      if ('results' in msg) {
        if (msg.trace) {
          traceAnswers(
            msg.results.map((r) => r.id),
            msg.trace,
            traced,
          );
        }
        for (const { id, result } of msg.results) {
          const resolve = reports.get(id);
          reports.delete(id);
          resolve?.(result);
        }
        settleIdle();
        return;
      }
      if ('io' in msg) {
        noteOpenLogIo(share.shard, msg.io);
        return;
      }
      if ('sealed' in msg) {
        // How long a seal held this thread's commits (docs/ingest-disk-writes.md).
        log.info(msg.sealed, 'open-block log sealed');
        if (ingestTraceOn) {
          const s = msg.sealed;
          traceWindow().event(
            `seal${s.shard}:${s.steps}steps,longest ${Math.round(s.longestStepMs)}ms,` +
              `finish ${Math.round(s.finishMs)}ms,total ${Math.round(s.totalMs)}ms`,
          );
        }
        return;
      }
      if ('stepped' in msg) {
        if (ingestTraceOn) {
          const s = msg.stepped;
          traceWindow().event(
            `${s.task}${s.shard}:${s.steps}steps,longest ${Math.round(s.longestStepMs)}ms`,
          );
        }
        return;
      }
      const waiter = tasks.get(msg.id);
      tasks.delete(msg.id);
      if (msg.ok) waiter?.resolve(msg.value as never);
      else waiter?.reject(new Error(msg.error));
    });
    w.on('error', (err) => log.error({ err }, 'ingest worker failed'));
    w.on('exit', (code) => {
      if (worker === w) worker = undefined;
      // A thread that died inside a commit must not keep the other shares waiting.
      if (share.writeLock) WriteLock.releaseFor(share.writeLock, share.shard);
      markLoaded();
      if (!closing) log.error({ code }, 'ingest worker exited');
      for (const [id, resolve] of reports) {
        reports.delete(id);
        resolve(notStored('ingest worker exited'));
      }
      for (const [id, waiter] of tasks) {
        tasks.delete(id);
        waiter.reject(new Error('ingest worker exited'));
      }
      settleIdle();
    });
    return w;
  }

  function current(): Worker {
    worker ??= start();
    return worker;
  }

  function task<T>(req: EngineRequest | { seal: { now: number; sealMs?: number } }): Promise<T> {
    const id = nextId++;
    const kind = 'seal' in req ? 'seal' : req.type;
    const t0 = ingestTraceOn ? traceNow() : 0;
    return new Promise<T>((resolve, reject) => {
      tasks.set(id, {
        resolve: (v) => {
          if (ingestTraceOn) {
            const answeredMs = traceNow() - t0;
            // Traffic chunks come by the hundred: a line per second counts them, with the
            // longest transaction (the value) and the slowest answer (queue and transaction).
            if (kind === 'traffic') traceWindow().tally(`traffic${share.shard}`, v, answeredMs);
            else traceWindow().event(`${kind}${share.shard}:${Math.round(answeredMs)}ms`);
          }
          resolve(v);
        },
        reject,
      });
      current().postMessage(
        ('seal' in req ? { id, ...req } : { id, task: req }) satisfies ToWorker,
      );
    });
  }

  // Start now rather than on the first report: the thread needs a moment to load.
  current();

  return {
    process(r) {
      const id = nextId++;
      const body = ownedBody(r.body, r.bodyDisposable);
      // The worker checks deadlines against the system clock; carry over the time left.
      const deadline = systemClock.now() + (r.deadline - now());
      if (ingestTraceOn) traced.set(id, [traceNow(), 0]);
      queue.push({
        report: { nodeId: r.nodeId, receivedAt: r.receivedAt, deadline, body, ip: r.ip, id },
        body: body?.buffer as ArrayBuffer | undefined,
      });
      return new Promise<CoreResult>((resolve) => reports.set(id, resolve));
    },
    setRenderFacts(nodeId, f) {
      if (f) facts.set(nodeId, f);
      else facts.delete(nodeId);
      // Before any report queued after it (reports queued before were received before the
      // change anyway, and may travel with it).
      if (factsOut.length === 0) queueMicrotask(sendFacts);
      factsOut.push([nodeId, f]);
    },
    rollup: (now, sealMs) => task<RollupRunResult>({ type: 'rollup', now, sealMs }),
    retention: (now, rawRetentionDays, maxBytes) =>
      task<RetentionRunResult>({ type: 'retention', now, rawRetentionDays, maxBytes }),
    applyTraffic: (batch) => task<TrafficStepResult>({ type: 'traffic', batch }),
    ready: () => loaded,
    sealOpenLog: (now, sealMs) => task<void>({ seal: { now, sealMs } }),
    async drain() {
      if (reports.size === 0 && queue.length === 0) return;
      await new Promise<void>((resolve) => idle.push(resolve));
    },
    async close() {
      await this.drain();
      if (!worker) return;
      closing = true;
      const w = worker;
      const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
      const id = nextId++;
      const closed = new Promise<void>((resolve, reject) =>
        tasks.set(id, { resolve: resolve, reject }),
      );
      w.postMessage({ id, close: true } satisfies ToWorker);
      await closed.catch(() => {});
      await exited;
    },
  };
}
