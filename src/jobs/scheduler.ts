import type { Clock } from '../platform/clock.js';
import type { Logger } from '../platform/logger.js';
import type { Job } from './job.js';

/**
 * Runs each job every `intervalMs` (first run one interval after start), never two runs of the
 * same job at once. stop() cancels future runs and waits for the ones in progress.
 */
export class Scheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Set<Promise<unknown>>();
  private stopped = true;

  constructor(
    private readonly jobs: readonly Job[],
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    for (const job of this.jobs) this.plan(job);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await Promise.allSettled([...this.running]);
  }

  private plan(job: Job): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(job.name);
      const run = this.runJob(job);
      this.running.add(run);
      void run.finally(() => {
        this.running.delete(run);
        this.plan(job);
      });
    }, job.intervalMs);
    timer.unref();
    this.timers.set(job.name, timer);
  }

  private async runJob(job: Job): Promise<void> {
    try {
      const result = await job.runOnce(this.clock.now());
      this.log.debug({ job: job.name, result }, 'job finished');
    } catch (err) {
      this.log.error({ err, job: job.name }, 'job failed');
    }
  }
}
