import type { Job } from './scheduler.js';
import type { UptimeRepo } from '../store/ports.js';
import { localDate } from '../domain/uptime/calendar.js';

const RETENTION_MS = 46 * 86_400_000;
const BATCH = 500;

/** Deletes uptime rows older than 46 days in small batches, hourly, yielding between batches. */
export function uptimeRetentionJob(repo: UptimeRepo, zone: string): Job {
  return {
    name: 'uptime-retention',
    nextRunAt: (now) => now + 3_600_000,
    runOnce: async (now) => {
      const cut = now - RETENTION_MS;
      const day = localDate(cut, zone);
      while ((await repo.prune(cut, cut, day, BATCH)) > 0) {
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}
