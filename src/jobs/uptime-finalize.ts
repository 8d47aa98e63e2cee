import type { Job } from './scheduler.js';
import type { UptimeService } from '../domain/uptime/uptime-service.js';
import { FINALISE_DELAY_MS } from '../domain/uptime/uptime-service.js';
import { MINUTE_MS } from '../domain/uptime/minute-online.js';

/** Finalises each completed minute about six seconds after its boundary (HH:MM:06). */
export function uptimeFinalizeJob(uptime: UptimeService): Job {
  return {
    name: 'uptime-finalize',
    nextRunAt: (now) =>
      Math.floor((now - FINALISE_DELAY_MS) / MINUTE_MS + 1) * MINUTE_MS + FINALISE_DELAY_MS,
    runOnce: async (now) => {
      await uptime.finalise(now);
    },
  };
}
