import type { Job } from './scheduler.js';
import type { HistoryPartitions } from '../store/ports.js';

const HOUR_MS = 3_600_000;

/**
 * PostgreSQL history partitions, hourly: creates the coming days' partitions and drops raw
 * history days past retention. Hourly, so a missed run or a restart is caught up well before
 * the next day needs its partition (three days are kept ready).
 */
export function historyPartitionsJob(partitions: HistoryPartitions, rawRetentionDays: number): Job {
  return {
    name: 'history-partitions',
    nextRunAt: (now) => now + HOUR_MS,
    runOnce: async (now) => {
      await partitions.maintain(now, rawRetentionDays);
    },
  };
}
