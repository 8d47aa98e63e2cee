/**
 * Paces the steps of a long background job that shares a thread with latency-bound work (an
 * ingest thread's seal of its open-block log, its rollup task): every step is followed by a
 * gap proportional to how long it ran, so the job takes at most `share` of the thread's time
 * and the report batches that arrive meanwhile run in the gaps instead of queueing behind a
 * run of steps; and the step size shrinks while steps run longer than `targetStepMs` (and grows
 * back while they are short), so one step holds the thread for about that long whatever the
 * machine's load (docs/ingest-performance.md, "Seal and rollup pacing").
 */
export interface PaceOptions {
  /** Share of wall time the steps may take, in (0, 1]; 1 leaves no gap (a stop, a start). */
  share: number;
  /** Longest gap after one step, so a slow step does not stall the job for long. */
  maxGapMs: number;
  /** Step time aimed at: above it the next step is made smaller, below a quarter of it larger. */
  targetStepMs: number;
  /** Smallest fraction of its full size a step is cut down to. */
  minScale: number;
}

/** A seal of 10,000 nodes is ~4 s of steps; at 1/3 it is spread over ~12 s of a 5-minute window. */
export const BACKGROUND_PACE: PaceOptions = {
  share: 1 / 3,
  maxGapMs: 100,
  targetStepMs: 25,
  minScale: 1 / 16,
};

/** No gaps and full-size steps: for work that should end as soon as it can (a stop). */
export const UNPACED: PaceOptions = { share: 1, maxGapMs: 0, targetStepMs: Infinity, minScale: 1 };

export class StepPacer {
  private lastStepMs = 0;
  private stepScale = 1;
  /** Steps run, and the longest of them (ms). */
  steps = 0;
  longestStepMs = 0;

  constructor(
    /** Monotonic milliseconds. */
    private readonly clock: () => number,
    /** Resolves after `ms` (0: on a later turn of the event loop, after the messages waiting). */
    private readonly wait: (ms: number) => Promise<void>,
    private readonly opts: PaceOptions = BACKGROUND_PACE,
  ) {}

  /** Fraction of its full size the next step should have, in [minScale, 1]. */
  get scale(): number {
    return this.stepScale;
  }

  /** The gap the last step earned: the thread is the batches' for that long. */
  gapMs(): number {
    const { share, maxGapMs } = this.opts;
    if (share >= 1) return 0;
    return Math.min(maxGapMs, (this.lastStepMs * (1 - share)) / share);
  }

  /** Waits out the last step's gap (at least one turn of the event loop), then runs `fn` as a step. */
  async step<T>(fn: () => T): Promise<T> {
    await this.wait(this.gapMs());
    return this.timed(fn);
  }

  /** Waits out the last step's gap, running nothing (before a step someone else schedules). */
  async pause(): Promise<void> {
    await this.wait(this.gapMs());
  }

  /**
   * Counts a step that ran elsewhere and took `ms` (a traffic chunk the HTTP thread sized and an
   * ingest thread stored): its gap and the next step's scale follow from it as from `timed`.
   */
  record(ms: number): void {
    this.note(ms);
  }

  /** Runs `fn` now, timed as a step (its gap is waited before the next one). */
  timed<T>(fn: () => T): T {
    const t0 = this.clock();
    try {
      return fn();
    } finally {
      this.note(this.clock() - t0);
    }
  }

  private note(ms: number): void {
    this.lastStepMs = ms;
    this.steps++;
    this.longestStepMs = Math.max(this.longestStepMs, ms);
    const { targetStepMs, minScale } = this.opts;
    if (ms > targetStepMs) this.stepScale = Math.max(minScale, this.stepScale / 2);
    else if (ms < targetStepMs / 4) this.stepScale = Math.min(1, this.stepScale * 2);
  }
}

/** The event-loop wait of a thread: a timer for a gap, else the next turn after I/O. */
export function eventLoopWait(ms: number): Promise<void> {
  return new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));
}

/** A pacer of the calling thread's background steps, on its monotonic clock and event loop. */
export function threadPacer(pace: PaceOptions = BACKGROUND_PACE): StepPacer {
  return new StepPacer(() => performance.now(), eventLoopWait, pace);
}
