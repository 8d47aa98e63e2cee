import type { Job } from './scheduler.js';
import type { JobLocks } from '../store/ports.js';

/**
 * The same job, run only by the instance that holds its lock at that moment (several Dash
 * instances on one PostgreSQL); the others skip their turn and try again at the next.
 */
export function exclusiveJob(job: Job, locks: JobLocks): Job {
  return {
    name: job.name,
    nextRunAt: (now) => job.nextRunAt(now),
    runOnce: async (now) => {
      await locks.runExclusive(job.name, () => job.runOnce(now));
    },
  };
}
