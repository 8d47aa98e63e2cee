import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Scheduler } from '../../src/jobs/scheduler.js';
import { trafficCollectJob } from '../../src/jobs/traffic-collect.js';
import type { TrafficCollector } from '../../src/domain/traffic/collector.js';
import { silentLogger } from '../../src/platform/logger.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const T0 = Date.UTC(2026, 10, 24, 12, 0, 0);

describe('traffic-collect job', () => {
  it('flushes once per interval, 5 s after each boundary, so a closed bucket is stored whole', () => {
    const job = trafficCollectJob({} as TrafficCollector, 60_000);
    expect(job.nextRunAt(T0)).toBe(T0 + 5_000);
    expect(job.nextRunAt(T0 + 5_000)).toBe(T0 + 65_000);
    expect(job.nextRunAt(T0 + 64_999)).toBe(T0 + 65_000);
    const often = trafficCollectJob({} as TrafficCollector, 10_000);
    expect(often.nextRunAt(T0 + 5_000)).toBe(T0 + 15_000);
  });

  it('runs on the scheduler at those times of the clock', async () => {
    vi.setSystemTime(T0 + 1_000);
    const runs: number[] = [];
    const collector = {
      flush: async () => {
        runs.push(Date.now() - T0);
        return 0;
      },
    } as unknown as TrafficCollector;
    const s = new Scheduler({ now: () => Date.now() }, silentLogger);
    s.add(trafficCollectJob(collector, 60_000));
    s.start();
    await vi.advanceTimersByTimeAsync(3 * 60_000);
    await s.stop();
    expect(runs).toEqual([5_000, 65_000, 125_000]);
  });
});
