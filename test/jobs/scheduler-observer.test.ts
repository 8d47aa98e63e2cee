import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Scheduler } from '../../src/jobs/scheduler.js';
import { silentLogger } from '../../src/platform/logger.js';
import { SelfMetrics } from '../../src/telemetry/self-metrics.js';
import { FakeClock } from '../support/fake-clock.js';
import { parseExposition } from '../support/exposition.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('job metrics', () => {
  it('reports how late each run started, its result and when it finished', async () => {
    const clock = new FakeClock(10_000);
    const self = new SelfMetrics({
      ingestQueued: () => 0,
      ingestBatches: () => ({ batches: 0, reports: 0 }),
      databaseBytes: () => 4096,
    });
    let fail = false;
    const s = new Scheduler(clock, silentLogger);
    s.observe(self);
    s.add({
      name: 'rollup',
      nextRunAt: (now) => now + 1000,
      runOnce: () => (fail ? Promise.reject(new Error('boom')) : Promise.resolve()),
    });
    const job = { job: 'rollup' };
    let f = parseExposition(await self.text());
    const value = (name: string, labels: Record<string, string>) =>
      Number(
        f
          .get(name)
          ?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
          ?.value,
      );
    s.start();
    // The timer fires when the clock already shows 250 ms past due (a busy event loop).
    clock.advance(1250);
    await vi.advanceTimersByTimeAsync(1000);
    f = parseExposition(await self.text());
    expect(value('dash_job_lag_seconds', job)).toBe(0.25);
    fail = true;
    clock.advance(1000);
    await vi.advanceTimersByTimeAsync(1000);
    await s.stop();
    f = parseExposition(await self.text());
    expect(value('dash_job_lag_seconds', job)).toBe(0);
    expect(value('dash_job_runs_total', { ...job, result: 'ok' })).toBe(1);
    expect(value('dash_job_runs_total', { ...job, result: 'failed' })).toBe(1);
    expect(value('dash_job_last_run_timestamp_seconds', job)).toBe(clock.now() / 1000);
    expect(value('dash_database_size_bytes', {})).toBe(4096);
  });

  it('exposes the outbox backlog only once a source is registered', async () => {
    const self = new SelfMetrics({
      ingestQueued: () => 3,
      ingestBatches: () => ({ batches: 2, reports: 7 }),
      databaseBytes: () => 0,
    });
    expect(parseExposition(await self.text()).has('dash_outbox_backlog_messages')).toBe(false);
    self.registerOutboxBacklog(() => 42);
    const f = parseExposition(await self.text());
    expect(f.get('dash_outbox_backlog_messages')?.metrics[0]?.value).toBe('42');
    expect(f.get('dash_ingest_queued_reports')?.metrics[0]?.value).toBe('3');
    expect(f.get('dash_ingest_batches_total')?.metrics[0]?.value).toBe('2');
    expect(f.get('dash_ingest_batched_reports_total')?.metrics[0]?.value).toBe('7');
  });
});
