import { describe, expect, it } from 'vitest';
import { SelfMetrics } from '../../src/telemetry/self-metrics.js';
import { emptyOpenLogIo, noteOpenLogIo, openLogIoTotals } from '../../src/workers/open-log-io.js';

describe('ingest threads’ disk writes by source on /metrics', () => {
  it('sums the threads’ counts and exposes them by source and event', async () => {
    expect(openLogIoTotals()).toBeUndefined();
    noteOpenLogIo(0, { ...emptyOpenLogIo(), sampleBytes: 1000, syncs: 3, syncedReports: 9 });
    noteOpenLogIo(1, { ...emptyOpenLogIo(), sampleBytes: 500, seals: 1, sealWritten: 4096 });
    // A newer count from a thread replaces its older one.
    noteOpenLogIo(1, { ...emptyOpenLogIo(), sampleBytes: 700, seals: 1, sealWritten: 8192 });
    expect(openLogIoTotals()).toMatchObject({ sampleBytes: 1700, syncs: 3, seals: 1 });
    expect(openLogIoTotals(0)?.sampleBytes).toBe(1000);
    const self = new SelfMetrics({
      ingestQueued: () => 0,
      ingestBatches: () => ({ batches: 0, reports: 0 }),
      databaseBytes: () => 0,
      openLogIo: openLogIoTotals,
    });
    const text = await self.text();
    expect(text).toContain('dash_ingest_log_bytes_total{source="appended_samples"} 1700');
    expect(text).toContain('dash_ingest_log_bytes_total{source="written_seal"} 8192');
    expect(text).toContain('dash_ingest_log_events_total{event="synced_reports"} 9');
    // PostgreSQL (no logs): the counters are not exposed at all.
    const pg = new SelfMetrics({
      ingestQueued: () => 0,
      ingestBatches: () => ({ batches: 0, reports: 0 }),
      databaseBytes: () => 0,
    });
    expect(await pg.text()).not.toContain('dash_ingest_log_');
  });
});
