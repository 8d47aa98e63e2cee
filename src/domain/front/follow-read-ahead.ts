import type { Clock } from '../../platform/clock.js';

/** What the read-ahead drives: FrontState's catch-up and its rendering of what that staged. */
export interface ReadAheadTarget {
  /** Re-reads what follow() noted (FollowBacklog); undefined when nothing waits. */
  catchUp(): Promise<void> | undefined;
  /** Renders up to `max` of the views catch-ups staged; returns how many are left. */
  renderFollowed(max: number): number;
  /** Nodes noted and not re-read yet. */
  readonly unread: number;
}

export interface ReadAheadOptions {
  clock: Clock;
  /**
   * A reader seen within this long keeps the read-ahead going. The dashboard polls every 3 s
   * (web METRICS_INTERVAL_MS), so the default spans a few polls and one slow one.
   */
  windowMs?: number;
  /** Pause before each background catch-up: notes arriving meanwhile share its statement. */
  gapMs?: number;
  /** Views rendered per slice before the thread goes back to other work. */
  renderSlice?: number;
  /**
   * After a failed background read, how long before the next: a store that is down would
   * otherwise be retried (and warned about) after every note. Readers still read at once.
   */
  retryMs?: number;
  warn: (msg: string, ctx: Record<string, unknown>) => void;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Catches up with followed reports in the background while someone reads front views, on an
 * instance that is not the alert leader (docs/postgresql.md "Reading ahead"). Following only
 * notes node ids there, so a reader's catch-up had to read and render every node changed since
 * the last read: the dashboard's poll took 2-4x longer than on the leader. While readers come,
 * the same work happens here, in bounded slices off the request path, and a poll finds only
 * what was noted since the last slice. Readers still await their own catch-up (nothing is
 * served older than the store was when it was asked), and with no reader for `windowMs` the
 * instance stays lazy: a note costs a set insertion and nothing is read.
 */
export class FollowReadAhead {
  private lastReaderAt: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = false;
  private readonly windowMs: number;
  private readonly gapMs: number;
  private readonly renderSlice: number;
  private readonly retryMs: number;
  /** Clock time before which no background read starts (after a failure). */
  private retryAt = 0;

  constructor(
    private readonly target: ReadAheadTarget,
    private readonly opts: ReadAheadOptions,
  ) {
    this.windowMs = opts.windowMs ?? 10_000;
    this.gapMs = opts.gapMs ?? 100;
    this.renderSlice = opts.renderSlice ?? 100;
    this.retryMs = opts.retryMs ?? 5_000;
  }

  /** A front view reader came (it is about to catch up itself). */
  readerSeen(): void {
    this.lastReaderAt = this.opts.clock.now();
  }

  /** Whether a reader came within the window. */
  get active(): boolean {
    return (
      !this.stopped &&
      this.lastReaderAt !== undefined &&
      this.opts.clock.now() - this.lastReaderAt <= this.windowMs
    );
  }

  /** Something was noted: schedules a background catch-up when readers are about. */
  noted(): void {
    if (this.running || this.timer || !this.active) return;
    const wait = Math.max(this.gapMs, this.retryAt - this.opts.clock.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, wait);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async run(): Promise<void> {
    if (!this.active) return;
    this.running = true;
    try {
      await this.target.catchUp();
      while (!this.stopped && this.target.renderFollowed(this.renderSlice) > 0) await nextTurn();
    } catch (err) {
      // The nodes stay noted: the next reader (or slice) reads them again. After stop() the
      // store may be closing under a read in flight: nothing to report then.
      if (!this.stopped) this.opts.warn('reading ahead of front view readers failed', { err });
      this.retryAt = this.opts.clock.now() + this.retryMs;
    } finally {
      this.running = false;
    }
    // Notes that came while this ran scheduled nothing (running): look for them now.
    if (this.target.unread > 0) this.noted();
  }
}
