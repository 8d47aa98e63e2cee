import type { Job } from './scheduler.js';
import type { NodeExposition } from '../telemetry/node-exposition.js';

/** Keeps the node part of GET /metrics current while it is being scraped. */
export function metricsExpositionJob(nodes: NodeExposition, intervalMs: number): Job {
  return {
    name: 'metrics-exposition',
    nextRunAt: (now) => now + intervalMs,
    runOnce: (now) => nodes.refreshIfScraped(now),
  };
}
