import type { Logger } from '../../platform/logger.js';
import type { TrafficBatch, TrafficRepo, TrafficUsageRow } from '../../store/ports.js';
import { cycleAt, type CycleWindow, type NodeCycle } from './cycle-bounds.js';
import type { CounterSample } from './facts.js';
import { addLite, litePairParts } from './lite.js';
import { CounterQueue, IfaceNames, type QueuedSample } from './counter-queue.js';
import { pairBatch } from './pair-batch.js';
import { IfaceCursors } from './iface-cursors.js';

/** Counters of one report's interfaces, as the accepted-report listener queues them. */
export interface QueuedReport {
  nodeId: number;
  receivedAt: number;
  ifaces: Array<{ name: string; rx: number; tx: number }>;
}

/**
 * Samples (one per interface of a report) queued beyond this many are refused with a warning:
 * a stalled database must not grow the queue without bound. About 80 MB. Counters are
 * cumulative, so the next stored sample still counts the bytes of the refused ones.
 */
export const QUEUE_LIMIT = 2_000_000;

/**
 * Samples stored per transaction: whole nodes, so each node's pages are written once per
 * flush. A transaction holds the ingest thread that runs it (and the write slot both ingest
 * threads share), so its size bounds how long report batches wait behind it; the batch is built
 * on the HTTP thread, which yields between chunks. With a pacer, this is the size at full scale.
 */
export const FLUSH_CHUNK = 4096;

/**
 * Paces a flush's chunks (platform/step-pacer.ts): after each chunk a gap for the report
 * batches, and chunks cut down (fewer whole nodes) while their transactions run long.
 */
export interface ChunkPacer {
  /** Fraction of the full chunk size the next chunk should have. */
  readonly scale: number;
  /** Waits out the gap the last chunk earned (at least a turn of the event loop). */
  pause(): Promise<void>;
  /** The last chunk's transaction took `ms` on the thread that ran it. */
  record(ms: number): void;
}

/**
 * Writes a chunk in one transaction; may resolve with how long the transaction held the thread
 * that ran it (ms), which paces the next chunks.
 */
export type StoreBatch = (batch: TrafficBatch) => Promise<number | void>;

/** How the last flush went: its chunks and the longest of their transactions. */
export interface FlushReport {
  chunks: number;
  samples: number;
  longestStepMs: number;
  /** The smallest chunk size used, as a fraction of the full size. */
  smallestScale: number;
}

export interface CollectorLimits {
  earlyFlushAt: number;
  queueLimit: number;
  /** Samples per transaction (FLUSH_CHUNK unless given). */
  flushChunk?: number;
}

/**
 * A queue this long (40 bytes a sample, about 40 MB) is flushed without waiting for the job. It
 * bounds memory only: at 3,000 reports/s of three interfaces it is reached after 111 s, so it
 * does not defeat a flush interval of a minute.
 */
export const EARLY_FLUSH_AT = 1_000_000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A queue being stored, node by node in ascending id. */
interface Draining {
  queue: CounterQueue;
  nodes: number[];
  starts: Uint32Array;
  order: Uint32Array;
  /** Nodes [0, done) are stored. */
  done: number;
}

/** What a read needs besides the store: samples not stored yet and the sample they follow. */
export interface PendingSamples<T> {
  value: T;
  /** The interface's last stored sample (undefined: none). */
  prev: CounterSample | undefined;
  /** Queued samples after it, in time order. */
  samples: CounterSample[];
}

/**
 * Stores per-interface counters and materialises 5-minute facts and Lite accumulators from
 * them, one pair (previous sample, new sample) at a time. The accepted-report listener only
 * queues the counters; `flush`, run by a clock-driven job, stores them node by node, so the
 * ingest HTTP thread never waits on it. Reads add the samples not stored yet
 * (`withPending`), so a longer flush interval does not make them stale.
 */
export class TrafficCollector {
  private readonly names = new IfaceNames();
  private queue = new CounterQueue(this.names);
  private draining: Draining | undefined;
  /** Reports whose counters the full queue refused since the last flush. */
  private refused = 0;
  /** A stop is under way: chunks at full size, no gaps. */
  private hurried = false;
  /** The flush in progress (or the last one). */
  private report: FlushReport = { chunks: 0, samples: 0, longestStepMs: 0, smallestScale: 1 };
  private cursors: IfaceCursors | undefined;
  /** flush and Lite repairs take turns, so a repair never races a live accumulation. */
  private turn: Promise<unknown> = Promise.resolve();
  private flushing = false;
  /** A chunk being built or stored; reads wait for it, and it waits for reads in progress. */
  private chunk: Promise<void> | undefined;
  private readers = 0;
  private readersDone: Array<() => void> = [];
  /**
   * Cycle windows met so far per node, for the cycle they were computed from: a window lasts a
   * month, and computing one (time zone arithmetic) costs more than the rest of a sample.
   */
  private readonly windows = new Map<number, { cycle: NodeCycle; list: CycleWindow[] }>();

  constructor(
    private readonly repo: TrafficRepo,
    private readonly cycleOf: (nodeId: number) => Promise<NodeCycle | undefined>,
    private readonly log: Logger,
    /** Writes a chunk in one transaction (by default through the repository). */
    private readonly storeBatch: StoreBatch = (b) => repo.apply(b),
    private readonly limits: CollectorLimits = {
      earlyFlushAt: EARLY_FLUSH_AT,
      queueLimit: QUEUE_LIMIT,
    },
    /**
     * Paces the chunks when `storeBatch` runs them on a thread that report batches need too
     * (SQLite's first ingest thread); without one, chunks follow each other at full size.
     */
    private readonly pacer?: ChunkPacer,
  ) {}

  enqueue(report: QueuedReport): void {
    if (report.ifaces.length === 0) return;
    if (this.queue.length + report.ifaces.length > this.limits.queueLimit) {
      this.refused++;
      return;
    }
    for (const i of report.ifaces) {
      this.queue.push(report.nodeId, i.name, report.receivedAt, i.rx, i.tx);
    }
    if (this.queue.length >= this.limits.earlyFlushAt && !this.flushing) {
      this.flushing = true;
      this.flush().then(
        () => (this.flushing = false),
        (err: unknown) => {
          this.flushing = false;
          this.log.error({ err }, 'traffic counters could not be stored; kept for the next run');
        },
      );
    }
  }

  /** Samples queued and not stored yet. */
  get pending(): number {
    const d = this.draining;
    return this.queue.length + (d ? d.order.length - (d.starts[d.done] as number) : 0);
  }

  /**
   * Forgets every queued sample (this instance stopped leading collection: the one that leads
   * now pairs its samples with the last stored ones, and storing ours after them would count
   * the same bytes twice). Counters are cumulative, so no byte is lost.
   */
  discardQueued(): Promise<void> {
    return this.inTurn(async () => {
      this.queue = new CounterQueue(this.names);
      this.draining = undefined;
      this.cursors = undefined;
    });
  }

  /**
   * Runs `work` while no flush or Lite replay runs (a rebuild chunk reads counters and then
   * replaces facts: a flush in between would add facts the replacement then drops).
   */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.inTurn(work);
  }

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const run = this.turn.then(work, work);
    this.turn = run.catch(() => undefined);
    return run;
  }

  /**
   * After a cycle change (reference §6.8): drops the node's Lite accumulators of cycles ending
   * after `from` and replays its stored counters from there with the new cycle, in 6-hour
   * chunks. Live accumulation waits meanwhile, so nothing is counted twice.
   */
  replayLite(nodeId: number, from: number): Promise<void> {
    return this.inTurn(async () => {
      const cycle = await this.cycleOf(nodeId);
      await this.repo.deleteUsageFrom(nodeId, from);
      if (!cycle) return;
      const range = await this.repo.counterRange(nodeId);
      if (!range) return;
      // Start at the first pair that reaches past `from`: the sample just before it.
      const around = await this.repo.countersAround(nodeId, from, from);
      const last = new Map<string, CounterSample>();
      for (const [iface, rows] of around) {
        const r = rows[0];
        if (r && r.at < from) last.set(iface, { at: r.at, rx: r.rx, tx: r.tx });
      }
      const windows: CycleWindow[] = [];
      const windowOf = (at: number) => {
        const hit = windows.find((w) => w.start <= at && at < w.end);
        if (hit) return hit;
        const w = cycleAt(cycle, at);
        windows.push(w);
        return w;
      };
      const STEP = 6 * 3_600_000;
      for (let a = from; a <= range.last; a += STEP) {
        const usage = new Map<string, TrafficUsageRow & { nodeId: number; iface: string }>();
        for (const c of await this.repo.counters(nodeId, a, a + STEP)) {
          const next: CounterSample = { at: c.at, rx: c.rx, tx: c.tx };
          const prev = last.get(c.iface);
          last.set(c.iface, next);
          if (!prev) continue;
          for (const part of litePairParts(prev, next, windowOf)) {
            if (part.cycleEnd <= from) continue;
            const uk = `${c.iface}\u0000${part.cycleStart}`;
            const merged = addLite(usage.get(uk), part);
            usage.set(uk, {
              ...merged,
              cycleStart: part.cycleStart,
              cycleEnd: part.cycleEnd,
              nodeId,
              iface: c.iface,
            });
          }
        }
        await this.repo.apply({ counters: [], ifaces: [], facts: [], usage: [...usage.values()] });
      }
    });
  }

  /**
   * Forgets each interface's last stored sample (read again at the next flush): another
   * instance collected meanwhile (several instances: this one just took over collection).
   */
  resetCursors(): Promise<void> {
    return this.inTurn(async () => {
      this.cursors = undefined;
    });
  }

  /** Writes every queued sample; returns how many were stored. */
  flush(): Promise<number> {
    return this.inTurn(() => this.flushNow());
  }

  /** How the last flush (or the one in progress) went. */
  get lastFlush(): FlushReport {
    return { ...this.report };
  }

  /**
   * A stop is under way: the flush in progress and the next ones store full-size chunks
   * without gaps, so the stop's own flush ends soon (a stop seals unpaced for the same reason).
   */
  hurry(): void {
    this.hurried = true;
  }

  /**
   * Runs `read` (one store statement about node `nodeId`) and returns with it the interface's
   * samples not stored yet and its last stored sample, all as of the same moment: no chunk is
   * stored while the read runs, and the read starts after the chunk in flight.
   */
  async withPending<T>(
    nodeId: number,
    iface: string,
    read: () => Promise<T>,
  ): Promise<PendingSamples<T>> {
    while (this.chunk) await this.chunk;
    this.readers++;
    try {
      const samples = this.queuedOf(nodeId, iface);
      const value = await read();
      if (samples.length === 0) return { value, prev: undefined, samples };
      const cursor = this.cursors
        ? this.cursors.get(nodeId, iface)
        : (await this.repo.ifaces(nodeId)).find((r) => r.iface === iface);
      const prev = cursor && { at: cursor.lastAt, rx: cursor.lastRx, tx: cursor.lastTx };
      return { value, prev, samples };
    } finally {
      if (--this.readers === 0) for (const wake of this.readersDone.splice(0)) wake();
    }
  }

  /** Interfaces of a node seen only in samples not stored yet (first and last time). */
  queuedIfaces(nodeId: number): Map<string, { firstAt: number; lastAt: number }> {
    const out = new Map<string, { firstAt: number; lastAt: number }>();
    for (const s of this.unstoredOf(nodeId)) {
      const hit = out.get(s.iface);
      if (hit) hit.lastAt = Math.max(hit.lastAt, s.at);
      else out.set(s.iface, { firstAt: s.at, lastAt: s.at });
    }
    return out;
  }

  private unstoredOf(nodeId: number, iface?: string): QueuedSample[] {
    const d = this.draining;
    const older: QueuedSample[] = [];
    if (d) {
      const k = d.nodes.indexOf(nodeId);
      if (k >= d.done) {
        for (let j = d.starts[k] as number; j < (d.starts[k + 1] as number); j++) {
          const s = d.queue.sample(d.order[j] as number);
          if (iface === undefined || s.iface === iface) older.push(s);
        }
      }
    }
    return older.concat(this.queue.samplesOf(nodeId, iface));
  }

  private queuedOf(nodeId: number, iface: string): CounterSample[] {
    return this.unstoredOf(nodeId, iface).map((s) => ({ at: s.at, rx: s.rx, tx: s.tx }));
  }

  private windowsOf(nodeId: number, cycle: NodeCycle): (at: number) => CycleWindow {
    let cached = this.windows.get(nodeId);
    if (cached?.cycle !== cycle) {
      cached = { cycle, list: [] };
      this.windows.set(nodeId, cached);
    }
    const list = cached.list;
    return (at: number) => {
      const hit = list.find((w) => w.start <= at && at < w.end);
      if (hit) return hit;
      const w = cycleAt(cycle, at);
      list.push(w);
      return w;
    };
  }

  private async flushNow(): Promise<number> {
    if (this.refused > 0) {
      // No byte is lost: the next stored sample's pair spans the refused ones.
      this.log.warn({ reports: this.refused }, 'traffic queue full; newer counters refused');
      this.refused = 0;
    }
    this.report = { chunks: 0, samples: 0, longestStepMs: 0, smallestScale: 1 };
    // A queue left half stored by a failed run first, then what was queued when the flush
    // began: reports arriving meanwhile wait for the next one, so a flush ends under load.
    let stored = this.draining ? await this.drain(this.draining) : 0;
    if (this.queue.length > 0) {
      const queue = this.queue;
      this.queue = new CounterQueue(this.names);
      this.draining = { queue, ...queue.byNode(), done: 0 };
      stored += await this.drain(this.draining);
    }
    return stored;
  }

  private async drain(d: Draining): Promise<number> {
    let stored = 0;
    let first = true;
    while (d.done < d.nodes.length) {
      // Unpaced in a stop, and once the queue behind this flush reaches the early-flush bound
      // (a flush paced to a sixteenth on a starved machine can fall a minute behind): memory
      // and the next flush come before the report batches' gaps then.
      const behind = this.queue.length >= this.limits.earlyFlushAt;
      const pacer = this.hurried || behind ? undefined : this.pacer;
      // The gap the last chunk earned (the report batches' turn on the storing thread); reads
      // run in it too, as no chunk is in flight.
      if (pacer) await pacer.pause();
      else if (!first) await nextTurn();
      first = false;
      const scale = pacer?.scale ?? 1;
      // Whole nodes up to the chunk size (one node alone may pass it).
      const chunk = Math.max(1, Math.floor((this.limits.flushChunk ?? FLUSH_CHUNK) * scale));
      let end = d.done + 1;
      const from = d.starts[d.done] as number;
      while (end < d.nodes.length && (d.starts[end + 1] as number) - from <= chunk) end++;
      while (this.readers > 0) await new Promise<void>((wake) => this.readersDone.push(wake));
      let release!: () => void;
      this.chunk = new Promise<void>((resolve) => (release = resolve));
      try {
        const samples: QueuedSample[] = [];
        for (let j = from; j < (d.starts[end] as number); j++) {
          samples.push(d.queue.sample(d.order[j] as number));
        }
        const { count, ms } = await this.store(samples);
        stored += count;
        d.done = end;
        if (ms !== undefined) pacer?.record(ms);
        const r = this.report;
        r.chunks++;
        r.samples += samples.length;
        r.longestStepMs = Math.max(r.longestStepMs, ms ?? 0);
        r.smallestScale = Math.min(r.smallestScale, scale);
      } catch (err) {
        // The transaction rolled back: reload cursors from the store and keep the samples.
        this.cursors = undefined;
        throw err;
      } finally {
        this.chunk = undefined;
        release();
      }
    }
    if (this.draining === d) this.draining = undefined;
    return stored;
  }

  /**
   * Stores one chunk of samples (grouped by node) in one transaction; returns how many, and how
   * long the transaction took when the store says.
   */
  private async store(samples: QueuedSample[]): Promise<{ count: number; ms?: number }> {
    if (!this.cursors) {
      this.cursors = new IfaceCursors(this.names, await this.repo.ifaceStates());
    }
    const windows = new Map<number, (at: number) => CycleWindow>();
    for (const s of samples) {
      if (windows.has(s.nodeId)) continue;
      const cycle = await this.cycleOf(s.nodeId);
      // A node deleted meanwhile has no cycle: its samples are skipped.
      if (cycle) windows.set(s.nodeId, this.windowsOf(s.nodeId, cycle));
    }
    const batch = pairBatch(samples, this.cursors, windows);
    const ms = await this.storeBatch(batch);
    return { count: batch.counters.length, ms: typeof ms === 'number' ? ms : undefined };
  }
}
