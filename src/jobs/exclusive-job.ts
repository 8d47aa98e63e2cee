import type { Job } from './scheduler.js';
import type { JobLocks } from '../store/ports.js';

/**
 * The same job, run only by the instance that holds its lock at that moment (several Dash
 * instances on one PostgreSQL), and once per turn: an instance whose timer fires after another
 * already ran the turn skips it (the job's own `nextRunAt` from the stored start of the last
 * run says when the next turn is due). The others try again at their next timer; when the
 * instance that ran the turns dies, the first whose timer fires after the next due time runs it.
 */
export function exclusiveJob(job: Job, locks: JobLocks): Job {
  return {
    name: job.name,
    nextRunAt: (now) => job.nextRunAt(now),
    runOnce: async (now) => {
      await locks.runExclusive(job.name, () => job.runOnce(now), {
        now,
        nextRunAt: (from) => job.nextRunAt(from),
      });
    },
  };
}
