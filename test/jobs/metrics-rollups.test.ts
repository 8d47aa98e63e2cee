import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Scheduler } from '../../src/jobs/scheduler.js';
import { ROLLUP_AT_MS, metricsRollupsJob } from '../../src/jobs/metrics-rollups.js';
import { FLUSH_DELAY_MS, trafficCollectJob } from '../../src/jobs/traffic-collect.js';
import type { TrafficCollector } from '../../src/domain/traffic/collector.js';
import type { MetricsMaintenance } from '../../src/store/ports.js';
import { silentLogger } from '../../src/platform/logger.js';
import { SEAL_GRACE_MS } from '../../src/store/sqlite/history-blocks.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const T0 = Date.UTC(2026, 10, 24, 12, 0, 0);

describe('metrics-rollups job', () => {
  it('runs at a fixed second of each minute, whenever the server started', () => {
    const job = metricsRollupsJob({} as MetricsMaintenance);
    expect(ROLLUP_AT_MS).toBe(20_000);
    expect(job.nextRunAt(T0)).toBe(T0 + 20_000);
    expect(job.nextRunAt(T0 + 19_999)).toBe(T0 + 20_000);
    expect(job.nextRunAt(T0 + 20_000)).toBe(T0 + 80_000);
    expect(job.nextRunAt(T0 + 47_123)).toBe(T0 + 80_000);
    expect(metricsRollupsJob({} as MetricsMaintenance, undefined, 30_000).nextRunAt(T0)).toBe(
      T0 + 30_000,
    );
  });

  it('runs on the scheduler at that second, apart from the traffic flush', async () => {
    vi.setSystemTime(T0 + 43_210);
    const runs: Array<[string, number]> = [];
    const rollups = {
      rollup: async (now: number, sealMs?: number) => {
        runs.push(['rollup', now - T0]);
        expect(sealMs).toBe(300_000);
        return { watermark15m: 0, watermark1h: 0 };
      },
    } as unknown as MetricsMaintenance;
    const collector = {
      flush: async () => {
        runs.push(['flush', Date.now() - T0]);
        return 0;
      },
    } as unknown as TrafficCollector;
    const s = new Scheduler({ now: () => Date.now() }, silentLogger);
    s.add(metricsRollupsJob(rollups, 300_000));
    s.add(trafficCollectJob(collector, 60_000));
    s.start();
    await vi.advanceTimersByTimeAsync(3 * 60_000);
    await s.stop();
    expect(runs).toEqual([
      ['flush', 65_000],
      ['rollup', 80_000],
      ['flush', 125_000],
      ['rollup', 140_000],
      ['flush', 185_000],
      ['rollup', 200_000],
    ]);
    // The first run after a seal boundary seals it (its grace has passed), and it starts well
    // after the flush on the same ingest thread did.
    expect(ROLLUP_AT_MS).toBeGreaterThanOrEqual(SEAL_GRACE_MS);
    expect(ROLLUP_AT_MS - FLUSH_DELAY_MS).toBeGreaterThanOrEqual(10_000);
  });
});
