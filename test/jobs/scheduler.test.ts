import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Scheduler } from '../../src/jobs/scheduler.js';
import { metricsRetentionJob } from '../../src/jobs/metrics-retention.js';
import { metricsRollupsJob } from '../../src/jobs/metrics-rollups.js';
import { silentLogger } from '../../src/platform/logger.js';
import { FakeClock } from '../support/fake-clock.js';
import type { MetricsMaintenance } from '../../src/store/ports.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Scheduler', () => {
  it('runs each job every interval with the clock time, never overlapping itself', async () => {
    const clock = new FakeClock(1000);
    const runs: number[] = [];
    let release: (() => void) | undefined;
    const job = {
      name: 'slow',
      nextRunAt: (now: number) => now + 100,
      runOnce: async (now: number) => {
        runs.push(now);
        await new Promise<void>((r) => (release = r));
      },
    };
    const s = new Scheduler(clock, silentLogger);
    s.add(job);
    s.start();
    await vi.advanceTimersByTimeAsync(99);
    expect(runs).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toEqual([1000]);
    // Still running: no second run however long it takes.
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toHaveLength(1);
    clock.advance(5000);
    release?.();
    await vi.advanceTimersByTimeAsync(100);
    expect(runs).toEqual([1000, 6000]);
    release?.();
    const stopped = s.stop();
    await vi.advanceTimersByTimeAsync(1000);
    await stopped;
    expect(runs).toHaveLength(2);
  });

  it('keeps running after a failing run', async () => {
    let calls = 0;
    const s = new Scheduler(new FakeClock(), silentLogger);
    s.add({
      name: 'flaky',
      nextRunAt: (now: number) => now + 10,
      runOnce: async () => {
        calls++;
        throw new Error('boom');
      },
    });
    s.start();
    await vi.advanceTimersByTimeAsync(35);
    await s.stop();
    expect(calls).toBe(3);
  });

  it('stop waits for the run in progress', async () => {
    let finished = false;
    const s = new Scheduler(new FakeClock(), silentLogger);
    s.add({
      name: 'j',
      nextRunAt: (now: number) => now + 10,
      runOnce: async () => {
        await new Promise((r) => setTimeout(r, 50));
        finished = true;
      },
    });
    s.start();
    await vi.advanceTimersByTimeAsync(10);
    const stopping = s.stop();
    await vi.advanceTimersByTimeAsync(50);
    await stopping;
    expect(finished).toBe(true);
  });
});

describe('metrics jobs', () => {
  it('hand the clock time and the raw retention to the writer', async () => {
    const calls: unknown[] = [];
    const m: MetricsMaintenance = {
      rollup: async (now) => {
        calls.push(['rollup', now]);
        return { watermark15m: undefined, watermark1h: undefined, buckets: 0 };
      },
      retention: async (now, days) => {
        calls.push(['retention', now, days]);
        return { raw: 0, rollup15m: 0, rollup1h: 0, devices: 0 };
      },
    };
    await metricsRollupsJob(m).runOnce(5);
    await metricsRetentionJob(m, 8).runOnce(7);
    expect(calls).toEqual([
      ['rollup', 5],
      ['retention', 7, 8],
    ]);
  });
});
