import type { Job } from './scheduler.js';
import type { AlertsService } from '../domain/alerts/service.js';

/** How often silent nodes are checked against the offline threshold. */
export const ALERTS_TICK_MS = 5_000;

/** Clock-driven alert evaluation: opens `node.offline` events for nodes that stopped reporting. */
export function alertsOfflineJob(alerts: AlertsService): Job {
  return {
    name: 'alerts-offline',
    nextRunAt: (now) => Math.floor(now / ALERTS_TICK_MS + 1) * ALERTS_TICK_MS,
    runOnce: (now) => alerts.tick(now),
  };
}
