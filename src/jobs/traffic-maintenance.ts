import type { Job } from './scheduler.js';

/** Hourly: sealed snapshots of closed cycles, then counters and facts past retention. */
export function trafficMaintenanceJob(run: (now: number) => Promise<void>): Job {
  return {
    name: 'traffic-maintenance',
    nextRunAt: (now) => Math.floor(now / 3_600_000 + 1) * 3_600_000 + 90_000,
    runOnce: run,
  };
}
