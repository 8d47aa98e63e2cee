import type { TrafficCollector } from '../domain/traffic/collector.js';
import type { Job } from './scheduler.js';

/** Stores queued interface counters and materialises their facts every 10 seconds. */
export function trafficCollectJob(collector: TrafficCollector): Job {
  return {
    name: 'traffic-collect',
    nextRunAt: (now) => now + 10_000,
    runOnce: async () => {
      await collector.flush();
    },
  };
}
