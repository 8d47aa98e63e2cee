import type { Worker } from 'node:worker_threads';
import type { RenderFacts } from '../domain/front/render.js';
import type { Prepared, PreparedBatch, RawReport } from '../domain/ingest/ingest-core.js';
import { systemClock } from '../platform/clock.js';
import type { Logger } from '../platform/logger.js';
import type { MetricsWrite } from '../store/ports.js';
import type { BatchPreparer } from './batch-preparer.js';
import type { FromPrepareWorker, PrepareWorkerData, ToPrepareWorker } from './prepare-worker.js';
import { spawnWorker } from './spawn-worker.js';

export interface PreparePoolOptions {
  threads: number;
  log: Logger;
  /** The caller's clock: deadlines are carried over to the threads' system clock and back. */
  now: () => number;
  staleAfterSec: number;
  runtimeAsJson: boolean;
}

interface Waiter {
  resolve: (prepared: readonly Prepared[]) => void;
  reject: (err: Error) => void;
}

/** One preparation thread and what it holds: started on demand, replaced after it died. */
class Shard {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiter>();
  /** Replayed into a replacement thread, so it renders views as the one before did. */
  private readonly facts = new Map<number, RenderFacts>();
  private closing = false;

  constructor(
    private readonly data: PrepareWorkerData,
    private readonly log: Logger,
  ) {}

  start(): Worker {
    if (this.worker) return this.worker;
    const w = spawnWorker('prepare-worker', this.data);
    this.worker = w;
    if (this.facts.size > 0) w.postMessage({ facts: [...this.facts] } satisfies ToPrepareWorker);
    w.on('message', (msg: FromPrepareWorker) => {
      const waiter = this.waiting.get(msg.id);
      this.waiting.delete(msg.id);
      waiter?.resolve(msg.prepared);
    });
    w.on('error', (err) => this.log.error({ err }, 'prepare worker failed'));
    w.on('exit', (code) => {
      if (this.worker === w) this.worker = undefined;
      if (!this.closing) this.log.error({ code }, 'prepare worker exited');
      for (const [id, waiter] of this.waiting) {
        this.waiting.delete(id);
        waiter.reject(new Error('prepare worker exited'));
      }
    });
    return w;
  }

  prepare(reports: RawReport[], transfer: ArrayBuffer[]): Promise<readonly Prepared[]> {
    const w = this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      w.postMessage({ id, reports } satisfies ToPrepareWorker, transfer);
    });
  }

  setFacts(nodeId: number, facts: RenderFacts | null): void {
    if (facts) this.facts.set(nodeId, facts);
    else this.facts.delete(nodeId);
    // Before any batch sent later: messages to one thread keep their order.
    this.start().postMessage({ facts: [[nodeId, facts]] } satisfies ToPrepareWorker);
  }

  /** Exits the thread (its unanswered batches reject: close after the backend drained). */
  async close(): Promise<void> {
    this.closing = true;
    const w = this.worker;
    if (w) await w.terminate();
  }

  /** Ends the thread as a crash would (tests). */
  async crash(): Promise<void> {
    const w = this.worker;
    if (w) await w.terminate();
  }
}

/**
 * Preparation on worker threads (`prepare-worker.ts`): each thread owns the nodes whose id
 * modulo the thread count is its index (so a node's batches keep their order and its render
 * facts live in one place); a batch is split by owner, prepared on the threads in parallel and
 * put back in its order. Bodies move to the threads without a copy where the caller gave them
 * away. The HTTP thread is left with the hand-over and the commit.
 */
export function preparePool(opts: PreparePoolOptions): BatchPreparer & {
  /** Ends every thread as a crash would (tests): their batches reject, the next ones restart them. */
  crash(): Promise<void>;
} {
  const data: PrepareWorkerData = {
    staleAfterSec: opts.staleAfterSec,
    runtimeAsJson: opts.runtimeAsJson,
  };
  const shards = Array.from({ length: Math.max(1, opts.threads) }, () => new Shard(data, opts.log));
  const of = (nodeId: number) => shards[nodeId % shards.length]!;
  // Start now rather than on the first report: a thread needs a moment to load.
  for (const s of shards) s.start();

  return {
    async prepare(reports) {
      const parts = new Map<
        Shard,
        { at: number[]; reports: RawReport[]; transfer: ArrayBuffer[] }
      >();
      const shift = systemClock.now() - opts.now();
      reports.forEach((r, i) => {
        const shard = of(r.nodeId);
        let part = parts.get(shard);
        if (!part) parts.set(shard, (part = { at: [], reports: [], transfer: [] }));
        // The thread must own the memory it receives: a disposable body that fills its own
        // allocation moves as it is; anything else (Fastify's buffers may be slices of a
        // shared pool) is copied to an exact-size buffer first.
        const b = r.body;
        const own =
          b &&
          r.bodyDisposable &&
          b.buffer instanceof ArrayBuffer &&
          b.byteOffset === 0 &&
          b.byteLength === b.buffer.byteLength;
        const body = own ? b : b && new Uint8Array(b);
        if (body) part.transfer.push(body.buffer as ArrayBuffer);
        part.at.push(i);
        part.reports.push({
          nodeId: r.nodeId,
          receivedAt: r.receivedAt,
          deadline: r.deadline + shift,
          body,
          ip: r.ip,
        });
      });
      const prepared: Prepared[] = new Array<Prepared>(reports.length);
      await Promise.all(
        [...parts].map(async ([shard, part]) => {
          const back = await shard.prepare(part.reports, part.transfer);
          back.forEach((p, k) => (prepared[part.at[k]!] = p));
        }),
      );
      const writes: MetricsWrite[] = [];
      prepared.forEach((p, i) => {
        if (!p.ok) return;
        // Back to the caller's clock, which the committer checks deadlines against.
        p.write.deadline = reports[i]!.deadline;
        writes.push(p.write);
      });
      return { prepared, writes } satisfies PreparedBatch;
    },
    setFacts: (nodeId, facts) => of(nodeId).setFacts(nodeId, facts),
    async close() {
      await Promise.all(shards.map((s) => s.close()));
    },
    async crash() {
      await Promise.all(shards.map((s) => s.crash()));
    },
  };
}
