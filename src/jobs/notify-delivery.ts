import type { Job } from './scheduler.js';
import type { OutboxWorker } from '../domain/channels/outbox-worker.js';

/** How often the outbox is polled for new transitions and due items. */
export const NOTIFY_TICK_MS = 1_000;

/** Notification delivery off the request path: fan-out, lease, send, record. */
export function notifyDeliveryJob(worker: OutboxWorker): Job {
  return {
    name: 'notify-delivery',
    nextRunAt: (now) => Math.floor(now / NOTIFY_TICK_MS + 1) * NOTIFY_TICK_MS,
    runOnce: (now) => worker.runOnce(now),
  };
}
