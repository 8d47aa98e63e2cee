import type { BatchTrace, SyncTrace } from './ingest-trace.js';

/** One sync of a file on a libuv thread: everything written before the call is on disk at done. */
export type SyncFn = (done: (err: Error | null) => void) => void;

/** Syncs that may run at once (see GroupSync). */
export const SYNCS_IN_FLIGHT = 2;

/**
 * Group commit delay (`ingest_commit_delay`, commit-delay.ts): a sync waits up to `delayMs`
 * after the oldest answer it would release arrived, so that more batches share it (each sync
 * pads the log to a 4 KiB page: half a page on average), unless `shareBytes` of records wait
 * already.
 */
export interface CommitDelay {
  delayMs: number;
  shareBytes: number;
  /** Bytes appended since the last sync started (negative: the file was replaced since). */
  pendingBytes: () => number;
  /** Told when a sync starts, with the number of answers it will release. */
  onStart?: (answers: number) => void;
  /** Milliseconds, monotonic (performance.now in the thread). */
  clock: () => number;
}

interface Group<A> {
  answers: A[];
  buffers: ArrayBuffer[];
  wal: boolean;
  traces: BatchTrace[];
}

/**
 * Group fsync: the answers of committed batches are released by the first fdatasync of the log
 * (and of the WAL, when a batch of the group wrote to SQLite) that starts after their commit.
 * Up to SYNCS_IN_FLIGHT syncs run at once: a batch committed while a sync is in flight starts
 * its own at once instead of waiting for that one to end and then for a whole sync of its own
 * (half of each second's p99 before, docs/ingest-performance.md#tail-latency); each sync
 * releases exactly the answers it covers, as soon as it ends. Beyond that, the batches that
 * commit meanwhile wait together for the next one (group commit). A 200 means the report
 * survives power loss, without blocking the ingest thread on the disk. With a CommitDelay, a
 * sync also waits for its group to be old or large enough.
 */
export class GroupSync<A> {
  private inFlight = 0;
  private next: Group<A> = GroupSync.empty();
  private readonly idlers: Array<() => void> = [];
  private readonly quiet: Array<() => void> = [];
  /** When the oldest answer of `next` arrived (CommitDelay's clock), and the delay's timer. */
  private firstWaitAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly syncLog: SyncFn,
    private readonly syncWal: SyncFn,
    /** Sends the answers of one ended sync (error: the sync failed, none is stored). */
    private readonly release: (
      answers: A[],
      buffers: ArrayBuffer[],
      error: Error | null,
      trace: SyncTrace | undefined,
    ) => void,
    private readonly now?: () => number,
    private readonly delay?: CommitDelay,
  ) {}

  private static empty<A>(): Group<A> {
    return { answers: [], buffers: [], wal: false, traces: [] };
  }

  /** Answers of a batch just committed (its log records appended, its transaction done). */
  after(answers: A[], wal: boolean, packed: ArrayBuffer | undefined, trace?: BatchTrace): void {
    if (this.delay && this.next.answers.length === 0) this.firstWaitAt = this.delay.clock();
    this.next.answers.push(...answers);
    if (packed) this.next.buffers.push(packed);
    if (trace) this.next.traces.push(trace);
    this.next.wal ||= wal;
    this.startIfFree();
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

  private startIfFree(): void {
    // Work waiting for a quiet moment (a seal rotates the log) goes first: no new sync meanwhile.
    if (this.quiet.length > 0 || this.inFlight >= SYNCS_IN_FLIGHT) return;
    if (this.next.answers.length === 0) return;
    if (this.delay && this.holdBack(this.delay)) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.delay?.onStart?.(this.next.answers.length);
    const group = this.next;
    this.next = GroupSync.empty();
    this.inFlight++;
    const syncStart = this.now?.() ?? 0;
    let pending = group.wal ? 2 : 1;
    let failure: Error | null = null;
    const done = (err: Error | null): void => {
      failure ??= err;
      if (--pending > 0) return;
      this.inFlight--;
      const trace = this.now
        ? { batches: group.traces, syncStart, syncEnd: this.now(), wal: group.wal }
        : undefined;
      this.release(group.answers, group.buffers, failure, trace);
      if (this.inFlight === 0) for (const fn of this.quiet.splice(0)) fn();
      this.startIfFree();
      if (this.inFlight === 0 && this.next.answers.length === 0) {
        for (const resolve of this.idlers.splice(0)) resolve();
      }
    };
    try {
      this.syncLog(done);
    } catch (err) {
      done(err as Error);
    }
    if (group.wal) {
      try {
        this.syncWal(done);
      } catch (err) {
        done(err as Error);
      }
    }
  }

  /** True (with a timer set to look again) while the waiting group is young and small. */
  private holdBack(d: CommitDelay): boolean {
    const left = this.firstWaitAt + d.delayMs - d.clock();
    const pending = d.pendingBytes();
    if (left <= 0 || pending < 0 || pending >= d.shareBytes) return false;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.startIfFree();
    }, left);
    return true;
  }
}
