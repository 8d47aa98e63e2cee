import type { Logger } from '../../platform/logger.js';
import type {
  TrafficBatch,
  TrafficFactRow,
  TrafficIfaceRow,
  TrafficRepo,
  TrafficUsageRow,
} from '../../store/ports.js';
import { cycleAt, type CycleWindow, type NodeCycle } from './cycle-bounds.js';
import { addFact, pairParts, type CounterSample } from './facts.js';
import { addLite, litePairParts } from './lite.js';

/** Counters of one report's interfaces, as the accepted-report listener queues them. */
export interface QueuedReport {
  nodeId: number;
  receivedAt: number;
  ifaces: Array<{ name: string; rx: number; tx: number }>;
}

/** Reports waiting beyond this many are dropped (oldest first) with a warning: a stalled
 * database must not grow the queue without bound. */
export const QUEUE_LIMIT = 200_000;

/**
 * Reports stored per transaction. A flush runs on the HTTP thread: it yields between chunks so
 * a fleet's ten seconds of counters never hold the event loop (and every report waiting on it)
 * for more than a few milliseconds at a time.
 */
export const FLUSH_CHUNK = 250;

/** A queue this long is flushed without waiting for the job, so it stays young (see enqueue). */
export const EARLY_FLUSH_AT = 2_000;

const key = (nodeId: number, iface: string) => `${nodeId}\u0000${iface}`;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Stores per-interface counters and materialises 5-minute facts and Lite accumulators from
 * them, one pair (previous sample, new sample) at a time. The accepted-report listener only
 * queues the counters; `flush`, run by a clock-driven job, does the work in one transaction
 * per run, so the ingest HTTP thread never waits on it.
 */
export class TrafficCollector {
  private queue: QueuedReport[] = [];
  private dropped = 0;
  private cursors: Map<string, TrafficIfaceRow> | undefined;
  /** flush and Lite repairs take turns, so a repair never races a live accumulation. */
  private turn: Promise<unknown> = Promise.resolve();
  private flushing = false;
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
    private readonly storeBatch: (batch: TrafficBatch) => Promise<void> = (b) => repo.apply(b),
  ) {}

  enqueue(report: QueuedReport): void {
    if (report.ifaces.length === 0) return;
    if (this.queue.length >= QUEUE_LIMIT) {
      this.queue.shift();
      this.dropped++;
    }
    this.queue.push(report);
    // Reports queued for the whole job interval outlive the young generation and are promoted,
    // so at fleet scale the old generation would fill with them between flushes: flush early.
    if (this.queue.length >= EARLY_FLUSH_AT && !this.flushing) {
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

  get pending(): number {
    return this.queue.length;
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

  /** Writes every queued report; returns how many samples were stored. */
  flush(): Promise<number> {
    return this.inTurn(() => this.flushNow());
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
    if (this.dropped > 0) {
      this.log.warn({ dropped: this.dropped }, 'traffic queue overflowed; samples dropped');
      this.dropped = 0;
    }
    let stored = 0;
    // What was queued when the flush began: reports arriving meanwhile wait for the next one,
    // so a flush ends under steady load.
    let left = this.queue.length;
    while (left > 0) {
      const reports = this.queue.splice(0, Math.min(left, FLUSH_CHUNK));
      left -= reports.length;
      try {
        stored += await this.store(reports);
      } catch (err) {
        // The transaction rolled back: reload cursors from the store and keep the samples.
        this.cursors = undefined;
        this.queue = reports.concat(this.queue);
        throw err;
      }
      if (left > 0) await nextTurn();
    }
    return stored;
  }

  /** Stores one chunk of reports in one transaction; returns how many samples it held. */
  private async store(reports: QueuedReport[]): Promise<number> {
    if (!this.cursors) {
      this.cursors = new Map(
        (await this.repo.ifaceStates()).map((r) => [key(r.nodeId, r.iface), r]),
      );
    }
    const cursors = this.cursors;
    const batch: TrafficBatch = { counters: [], ifaces: [], facts: [], usage: [] };
    const facts = new Map<string, TrafficFactRow & { nodeId: number; iface: string }>();
    const usage = new Map<string, TrafficUsageRow & { nodeId: number; iface: string }>();
    const touched = new Map<string, TrafficIfaceRow>();
    for (const r of reports) {
      const cycle = await this.cycleOf(r.nodeId);
      if (!cycle) continue; // deleted meanwhile
      const windowOf = this.windowsOf(r.nodeId, cycle);
      for (const i of r.ifaces) {
        const k = key(r.nodeId, i.name);
        const prev = cursors.get(k);
        if (prev && r.receivedAt <= prev.lastAt) continue;
        batch.counters.push({
          nodeId: r.nodeId,
          iface: i.name,
          at: r.receivedAt,
          rx: i.rx,
          tx: i.tx,
        });
        const next: CounterSample = { at: r.receivedAt, rx: i.rx, tx: i.tx };
        if (prev) {
          const p: CounterSample = { at: prev.lastAt, rx: prev.lastRx, tx: prev.lastTx };
          for (const part of pairParts(p, next)) {
            const fk = `${k}\u0000${part.bucket}`;
            const f = facts.get(fk);
            if (f) addFact(f, part);
            else facts.set(fk, { ...part, nodeId: r.nodeId, iface: i.name });
          }
          for (const part of litePairParts(p, next, windowOf)) {
            const uk = `${k}\u0000${part.cycleStart}`;
            const merged = addLite(usage.get(uk), part);
            usage.set(uk, {
              ...merged,
              cycleStart: part.cycleStart,
              cycleEnd: part.cycleEnd,
              nodeId: r.nodeId,
              iface: i.name,
            });
          }
        }
        const row: TrafficIfaceRow = {
          nodeId: r.nodeId,
          iface: i.name,
          firstAt: prev?.firstAt ?? r.receivedAt,
          lastAt: r.receivedAt,
          lastRx: i.rx,
          lastTx: i.tx,
        };
        cursors.set(k, row);
        touched.set(k, row);
      }
    }
    batch.ifaces = [...touched.values()];
    batch.facts = [...facts.values()];
    batch.usage = [...usage.values()];
    await this.storeBatch(batch);
    return batch.counters.length;
  }
}
