import type { TrafficCollector } from '../domain/traffic/collector.js';
import type { Job } from './scheduler.js';

/**
 * Seconds after each interval boundary a flush runs: a report every few seconds has by then
 * closed the 5-minute bucket that ended at the boundary, so the bucket is stored whole at once.
 */
export const FLUSH_DELAY_MS = 5_000;

/**
 * `traffic_flush_interval`, or by default: SQLite writes every node's pages whole on each
 * flush (WAL, then checkpoint), so it flushes once a minute (docs/ingest-disk-writes.md); on
 * PostgreSQL, instances that do not lead collection read no queue, so flushing every 10 s keeps
 * their traffic reads that fresh.
 */
export function flushIntervalOf(config: {
  trafficFlushMs?: number;
  database: { kind: 'sqlite' | 'postgres' };
}): number {
  return config.trafficFlushMs ?? (config.database.kind === 'postgres' ? 10_000 : 60_000);
}

/**
 * Stores queued interface counters and materialises their facts every `intervalMs` (which
 * divides 5 minutes), `FLUSH_DELAY_MS` after each boundary. Reads add what is still queued, so
 * the interval trades memory and crash loss of samples against pages written (docs/traffic.md).
 */
export function trafficCollectJob(collector: TrafficCollector, intervalMs: number): Job {
  return {
    name: 'traffic-collect',
    nextRunAt: (now) =>
      Math.floor((now - FLUSH_DELAY_MS) / intervalMs + 1) * intervalMs + FLUSH_DELAY_MS,
    runOnce: async () => {
      await collector.flush();
    },
  };
}
