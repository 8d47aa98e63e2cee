import { describe, expect, it } from 'vitest';
import { SelfMetrics } from '../../src/telemetry/self-metrics.js';
import { emptyOpenLogIo, noteOpenLogIo, openLogIoTotals } from '../../src/workers/open-log-io.js';

describe('ingest threads’ disk writes by source on /metrics', () => {
  it('sums the threads’ counts and exposes them by source and event', async () => {
    // Other tests of this process may have noted threads of their own: shards 100 and 101 here.
    expect(openLogIoTotals(100)).toBeUndefined();
    const before = openLogIoTotals()?.sampleBytes ?? 0;
    noteOpenLogIo(100, { ...emptyOpenLogIo(), sampleBytes: 1000, syncs: 3, syncedReports: 9 });
    noteOpenLogIo(101, { ...emptyOpenLogIo(), sampleBytes: 500, seals: 1, sealWritten: 4096 });
    // A newer count from a thread replaces its older one.
    noteOpenLogIo(101, { ...emptyOpenLogIo(), sampleBytes: 700, seals: 1, sealWritten: 8192 });
    expect(openLogIoTotals()!.sampleBytes - before).toBe(1700);
    expect(openLogIoTotals(100)).toMatchObject({ sampleBytes: 1000, syncs: 3, syncedReports: 9 });
    const self = new SelfMetrics({
      ingestQueued: () => 0,
      ingestBatches: () => ({ batches: 0, reports: 0 }),
      databaseBytes: () => 0,
      openLogIo: () => openLogIoTotals(101),
    });
    const text = await self.text();
    expect(text).toContain('dash_ingest_log_bytes_total{source="appended_samples"} 700');
    expect(text).toContain('dash_ingest_log_bytes_total{source="written_seal"} 8192');
    expect(text).toContain('dash_ingest_log_events_total{event="seals"} 1');
    // PostgreSQL (no logs): the counters are not exposed at all.
    const pg = new SelfMetrics({
      ingestQueued: () => 0,
      ingestBatches: () => ({ batches: 0, reports: 0 }),
      databaseBytes: () => 0,
    });
    expect(await pg.text()).not.toContain('dash_ingest_log_');
  });
});
