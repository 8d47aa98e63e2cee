import type { BatchTrace, SyncTrace } from './ingest-trace.js';

/** One sync of a file on a libuv thread: everything written before the call is on disk at done. */
export type SyncFn = (done: (err: Error | null) => void) => void;

/** Syncs that may run at once (see GroupSync). */
export const SYNCS_IN_FLIGHT = 2;

interface Group<A> {
  answers: A[];
  buffers: ArrayBuffer[];
  wal: boolean;
  traces: BatchTrace[];
}

/** How a GroupSync waits for more batches before a sync (the log's group commit delay). */
export interface CommitDelay {
  /** Longest the oldest waiting answer waits for its sync to start (0: at once). */
  delayMs: number;
  /** Bytes appended since the last sync start that start one at once. */
  shareBytes: number;
  /** The log's size now (a smaller one than at the last sync start: it was rotated). */
  size: () => number;
}

export interface GroupSyncHooks<A> {
  syncLog: SyncFn;
  syncWal: SyncFn;
  /** Sends the answers of one ended sync (error: the sync failed, none is stored). */
  release: (
    answers: A[],
    buffers: ArrayBuffer[],
    error: Error | null,
    trace: SyncTrace | undefined,
  ) => void;
  delay?: CommitDelay;
  /** Told when a sync starts (how many answers it covers) and when one has released them. */
  started?: (answers: number) => void;
  ended?: () => void;
  /** Milliseconds for the delay (performance.now by default; tests pass a fake clock). */
  clock?: () => number;
  /** With the ingest trace: the shared time line the sync's start and end are stamped with. */
  traceNow?: () => number;
}

/**
 * Group fsync: the answers of committed batches are released by the first fdatasync of the log
 * (and of the WAL, when a batch of the group wrote to SQLite) that starts after their commit.
 * A sync starts once the oldest waiting answer has waited `delay.delayMs` or `shareBytes` of
 * records wait (fewer syncs, fewer rewrites of the log's last page: docs/ingest-disk-writes.md),
 * and up to SYNCS_IN_FLIGHT syncs run at once: a batch committed while a slow sync is in flight
 * no longer waits for it to end and then for a whole sync of its own (half of each second's p99
 * at load, docs/ingest-performance.md#tail-latency). Each sync releases exactly the answers it
 * covers, as soon as it ends. A 200 means the report survives power loss, without blocking the
 * ingest thread on the disk.
 */
export class GroupSync<A> {
  private inFlight = 0;
  private next: Group<A> = GroupSync.empty();
  private firstWaitAt = 0;
  private syncedSize: number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly idlers: Array<() => void> = [];
  private readonly quiet: Array<() => void> = [];
  private readonly clock: () => number;

  constructor(private readonly hooks: GroupSyncHooks<A>) {
    this.clock = hooks.clock ?? (() => performance.now());
    this.syncedSize = hooks.delay?.size() ?? 0;
  }

  private static empty<A>(): Group<A> {
    return { answers: [], buffers: [], wal: false, traces: [] };
  }

  /** Answers of a batch just committed (its log records appended, its transaction done). */
  after(answers: A[], wal: boolean, packed: ArrayBuffer | undefined, trace?: BatchTrace): void {
    if (this.next.answers.length === 0) this.firstWaitAt = this.clock();
    this.next.answers.push(...answers);
    if (packed) this.next.buffers.push(packed);
    if (trace) this.next.traces.push(trace);
    this.next.wal ||= wal;
    this.schedule();
  }

  /** Runs fn at once when no sync is in flight, else as soon as none is (no new one starts). */
  whenQuiet(fn: () => void): void {
    if (this.inFlight === 0) fn();
    else this.quiet.push(fn);
  }

  /** Resolves once every answer handed over so far has been sent. */
  idle(): Promise<void> {
    if (this.inFlight === 0 && this.next.answers.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idlers.push(resolve));
  }

  /** Starts a sync now, or once the delay since the oldest waiting answer has passed. */
  private schedule(): void {
    // Work waiting for a quiet moment (a seal rotates the log) goes first: no new sync meanwhile.
    if (this.quiet.length > 0 || this.inFlight >= SYNCS_IN_FLIGHT) return;
    if (this.next.answers.length === 0) return;
    const d = this.hooks.delay;
    if (d && d.delayMs > 0) {
      const left = this.firstWaitAt + d.delayMs - this.clock();
      const pending = d.size() - this.syncedSize;
      // pending < 0: a rotation replaced the file, its size says nothing (sync at once).
      if (left > 0 && pending < d.shareBytes && pending >= 0) {
        this.timer ??= setTimeout(() => {
          this.timer = undefined;
          this.schedule();
        }, left);
        return;
      }
    }
    this.start();
  }

  private start(): void {
    const group = this.next;
    this.next = GroupSync.empty();
    this.syncedSize = this.hooks.delay?.size() ?? 0;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.inFlight++;
    this.hooks.started?.(group.answers.length);
    const syncStart = this.hooks.traceNow?.() ?? 0;
    let pending = group.wal ? 2 : 1;
    let failure: Error | null = null;
    const done = (err: Error | null): void => {
      failure ??= err;
      if (--pending > 0) return;
      this.inFlight--;
      const traceNow = this.hooks.traceNow;
      const trace = traceNow
        ? { batches: group.traces, syncStart, syncEnd: traceNow(), wal: group.wal }
        : undefined;
      this.hooks.release(group.answers, group.buffers, failure, trace);
      if (this.inFlight === 0) for (const fn of this.quiet.splice(0)) fn();
      this.hooks.ended?.();
      this.schedule();
      if (this.inFlight === 0 && this.next.answers.length === 0) {
        for (const resolve of this.idlers.splice(0)) resolve();
      }
    };
    try {
      this.hooks.syncLog(done);
    } catch (err) {
      done(err as Error);
    }
    if (group.wal) {
      try {
        this.hooks.syncWal(done);
      } catch (err) {
        done(err as Error);
      }
    }
  }
}
