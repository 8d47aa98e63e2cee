import { monitorEventLoopDelay, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

/**
 * Diagnosis of the ingest path's latency tail (docs/ingest-performance.md#tail-latency), off
 * unless `DASH_INGEST_TRACE=1`: where each report's time went between the HTTP thread handing it
 * to an ingest thread and its answer coming back, per second, beside what happened in that
 * second (the HTTP thread's GC pauses and event-loop delay, seals, jobs). One line per second on
 * stdout, `ingest-trace {json}`. The stages are timed on both threads with
 * `performance.timeOrigin + performance.now()`, which threads share (each `Date.now()` would
 * do too, but the clock seam is for the domain's time, not for measuring).
 */
export const ingestTraceOn = process.env.DASH_INGEST_TRACE === '1';

/** Milliseconds on a time line every thread of the process shares. */
export function traceNow(): number {
  return performance.timeOrigin + performance.now();
}

/** What an ingest thread tells about one batch: when it arrived, when its commit ended. */
export interface BatchTrace {
  n: number;
  recv: number;
  done: number;
  /** Time the batch waited for the write slot (the other ingest thread's transaction). */
  slotWaitMs: number;
}

/** One group fsync and the batches whose answers it released. */
export interface SyncTrace {
  batches: BatchTrace[];
  syncStart: number;
  syncEnd: number;
  wal: boolean;
}

const STAGES = [
  'queue',
  'toWorker',
  'slot',
  'process',
  'waitSync',
  'sync',
  'back',
  'total',
] as const;
type Stage = (typeof STAGES)[number];

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const round = (n: number) => Math.round(n * 10) / 10;

/** The HTTP thread's side: per-report stage times, aggregated and printed once a second. */
class TraceWindow {
  private values = new Map<Stage, number[]>(STAGES.map((s) => [s, []]));
  private events: string[] = [];
  /** Steps counted per name this second: how many, the longest, the slowest answer. */
  private tallies = new Map<string, { n: number; longestMs: number; answerMs: number }>();
  private gc = { count: 0, ms: 0, maxMs: 0, major: 0 };
  /** Group fsyncs that answered reports, and those that synced the WAL too. */
  private syncs = { count: 0, wal: 0, batches: 0 };
  private readonly eld = monitorEventLoopDelay({ resolution: 5 });
  private started = false;

  start(): void {
    if (this.started) return;
    this.started = true;
    this.eld.enable();
    const obs = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        this.gc.count++;
        this.gc.ms += e.duration;
        this.gc.maxMs = Math.max(this.gc.maxMs, e.duration);
        // kind 1 = minor (scavenge), 2 = major (mark-compact), 4 incremental, 8 weak callbacks
        const kind = (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
        if (kind === 2) this.gc.major++;
        if (e.duration >= 10) this.event(`gc${kind ?? ''}:${round(e.duration)}ms`);
      }
    });
    obs.observe({ entryTypes: ['gc'] });
    setInterval(() => this.flush(), 1000).unref();
  }

  event(text: string): void {
    this.events.push(text);
  }

  /**
   * Counts a step that took `stepMs` on its thread (undefined: not timed) and was answered
   * `answerMs` after it was asked for; printed as one event per name each second.
   */
  tally(name: string, stepMs: unknown, answerMs: number): void {
    let t = this.tallies.get(name);
    if (!t) this.tallies.set(name, (t = { n: 0, longestMs: 0, answerMs: 0 }));
    t.n++;
    if (typeof stepMs === 'number') t.longestMs = Math.max(t.longestMs, stepMs);
    t.answerMs = Math.max(t.answerMs, answerMs);
  }

  sync(trace: SyncTrace): void {
    this.syncs.count++;
    if (trace.wal) this.syncs.wal++;
    this.syncs.batches += trace.batches.length;
  }

  add(stage: Stage, ms: number): void {
    this.values.get(stage)!.push(ms);
  }

  private flush(): void {
    const n = this.values.get('total')!.length;
    const p99: Record<string, number> = {};
    const max: Record<string, number> = {};
    for (const s of STAGES) {
      const v = this.values.get(s)!.sort((a, b) => a - b);
      p99[s] = round(quantile(v, 0.99));
      max[s] = round(v[v.length - 1] ?? 0);
      this.values.set(s, []);
    }
    for (const [name, t] of this.tallies) {
      this.events.push(
        `${name}:${t.n}steps,longest ${round(t.longestMs)}ms,answer ${Math.round(t.answerMs)}ms`,
      );
    }
    this.tallies.clear();
    const line = {
      at: Math.floor(traceNow() / 1000),
      n,
      p99,
      max,
      gc: { ...this.gc, ms: round(this.gc.ms), maxMs: round(this.gc.maxMs) },
      syncs: this.syncs,
      eld: {
        p99: round(this.eld.percentile(99) / 1e6),
        max: round(this.eld.max / 1e6),
      },
      events: this.events,
    };
    this.gc = { count: 0, ms: 0, maxMs: 0, major: 0 };
    this.syncs = { count: 0, wal: 0, batches: 0 };
    this.events = [];
    this.eld.reset();
    process.stdout.write(`ingest-trace ${JSON.stringify(line)}\n`);
  }
}

let window: TraceWindow | undefined;

/** The process's trace window, started on first use (HTTP thread only). */
export function traceWindow(): TraceWindow {
  window ??= new TraceWindow();
  window.start();
  return window;
}

/**
 * Adds each answered report's stages: `sent` holds, by report id, when the HTTP thread queued it
 * and when its batch left; the answers are the batches of `trace` in order.
 */
export function traceAnswers(
  ids: readonly number[],
  trace: SyncTrace,
  sent: Map<number, [queued: number, posted: number]>,
): void {
  const w = traceWindow();
  const now = traceNow();
  w.sync(trace);
  let i = 0;
  for (const b of trace.batches) {
    for (let k = 0; k < b.n; k++, i++) {
      const times = sent.get(ids[i]!);
      if (!times) continue;
      sent.delete(ids[i]!);
      const [queued, posted] = times;
      w.add('queue', posted - queued);
      w.add('toWorker', b.recv - posted);
      w.add('slot', b.slotWaitMs);
      w.add('process', b.done - b.recv);
      w.add('waitSync', trace.syncStart - b.done);
      w.add('sync', trace.syncEnd - trace.syncStart);
      w.add('back', now - trace.syncEnd);
      w.add('total', now - queued);
    }
  }
}

/** A scheduler observer that marks each job run on the trace line of the second it ended. */
export const traceJobs = {
  jobFinished(job: string, _dueAt: number, startedAt: number, finishedAt: number): void {
    traceWindow().event(`${job}:${finishedAt - startedAt}ms`);
  },
};
