import type { Clock } from '../platform/clock.js';
import type { Logger } from '../platform/logger.js';

/** A clock-driven background job; `runOnce` must be idempotent (tests call it directly). */
export interface Job {
  readonly name: string;
  /** When the job should next run, given the current time. */
  nextRunAt(now: number): number;
  runOnce(now: number): Promise<void>;
}

/** Told when a job run ends (Dash's own metrics: job lag and failures). */
export interface JobObserver {
  jobFinished(job: string, dueAt: number, startedAt: number, finishedAt: number, ok: boolean): void;
}

/**
 * Runs jobs one at a time each, on timers derived from the injected clock. `stop` waits for
 * runs in progress so shutdown never closes the store under a job.
 */
export class Scheduler {
  private readonly jobs: Job[] = [];
  private readonly timers = new Map<Job, NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  private readonly dueAt = new Map<Job, number>();
  private observers: JobObserver[] = [];
  private stopped = true;

  constructor(
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  add(job: Job): void {
    this.jobs.push(job);
    if (!this.stopped) this.schedule(job);
  }

  /** The job as scheduled (with its wrappers), by name: tests run one turn themselves. */
  job(name: string): Job | undefined {
    return this.jobs.find((j) => j.name === name);
  }

  observe(observer: JobObserver): void {
    this.observers.push(observer);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    for (const job of this.jobs) this.schedule(job);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await Promise.allSettled([...this.running]);
  }

  private schedule(job: Job): void {
    const now = this.clock.now();
    const due = job.nextRunAt(now);
    this.dueAt.set(job, due);
    const delay = Math.max(0, due - now);
    const timer = setTimeout(() => this.run(job), delay);
    timer.unref();
    this.timers.set(job, timer);
  }

  private run(job: Job): void {
    if (this.stopped) return;
    const startedAt = this.clock.now();
    let ok = true;
    const p = job
      .runOnce(startedAt)
      .catch((err: unknown) => {
        ok = false;
        this.log.error({ err, job: job.name }, 'job failed');
      })
      .finally(() => {
        const due = this.dueAt.get(job) ?? startedAt;
        for (const o of this.observers)
          o.jobFinished(job.name, due, startedAt, this.clock.now(), ok);
        this.running.delete(p);
        if (!this.stopped) this.schedule(job);
      });
    this.running.add(p);
  }
}
