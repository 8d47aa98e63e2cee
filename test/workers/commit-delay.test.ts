import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logger.js';
import { PAGE_BYTES } from '../../src/store/sqlite/open-log.js';
import { OpenLogIndex } from '../../src/store/sqlite/open-log-index.js';
import { openLogPath } from '../../src/store/sqlite/open-logs.js';
import { startIngestWorker } from '../../src/workers/ingest-worker-client.js';
import { openLogIoTotals } from '../../src/workers/open-log-io.js';
import { agentReport } from '../support/agent-payloads.js';
import { tempHome } from '../support/build-app.js';
import { seedNodes } from '../support/seed-home.js';

const NODES = 150;
const T = 1_764_000_000_000;

/** Each test's thread has a shard of its own, so the counters it sends are its own. */
async function worker(commitDelayMs: number, shard: number) {
  const home = tempHome();
  await seedNodes(home, NODES + 1);
  const path = join(home, 'dash.db');
  const backend = startIngestWorker(path, createLogger('error'), () => T, 15, {
    shard,
    commitDelayMs,
  });
  const report = (nodeId: number, at: number) =>
    backend.process({
      nodeId,
      receivedAt: at,
      deadline: at + 60_000,
      body: new Uint8Array(Buffer.from(JSON.stringify(agentReport({ seq: at % 1000 })))),
      ip: null,
    });
  /** Sample times of a node in the log, as a reader finds them on disk. */
  const logged = (nodeId: number) => {
    const index = new OpenLogIndex(openLogPath(path, shard));
    index.refresh();
    const times = index.times(nodeId, 0, Number.MAX_SAFE_INTEGER);
    index.close();
    return times;
  };
  return { backend, report, logged, path };
}

const timed = async <T>(fn: () => Promise<T>) => {
  const t0 = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t0 };
};

describe('group commit delay of the open-block log (ingest_commit_delay)', () => {
  it(
    'holds a lone report until the delay ends, and answers it only once it is in the log',
    { timeout: 30_000 },
    async () => {
      const { backend, report, logged } = await worker(400, 0);
      try {
        await backend.ready?.();
        const { value, ms } = await timed(() => report(1, T));
        expect(value.ok).toBe(true);
        expect(ms).toBeGreaterThanOrEqual(350);
        expect(logged(1)).toEqual([T]);
      } finally {
        await backend.close();
      }
    },
  );

  it(
    'syncs at once when enough reports wait to share the tail page',
    { timeout: 60_000 },
    async () => {
      const { backend, report, logged } = await worker(6000, 1);
      try {
        await backend.ready?.();
        // The first report warms the thread up (and waits out the whole delay).
        const first = await timed(() => report(NODES + 1, T));
        expect(first.ms).toBeGreaterThanOrEqual(5900);
        // ~180 B of records each: 150 reports are past COMMIT_SHARE_BYTES (16 KiB), so the
        // batches holding the first 16 KiB are synced at once; a last small batch may wait.
        const t0 = performance.now();
        const answeredAfter: number[] = [];
        const value = await Promise.all(
          Array.from({ length: NODES }, (_, i) =>
            report(i + 1, T).then((a) => (answeredAfter.push(performance.now() - t0), a)),
          ),
        );
        expect(value.every((a) => a.ok)).toBe(true);
        expect(answeredAfter.filter((ms) => ms < 5000).length).toBeGreaterThanOrEqual(90);
        for (const node of [1, NODES]) expect(logged(node)).toEqual([T]);
      } finally {
        await backend.close();
      }
    },
  );

  it('with 0 syncs at once, and counts its writes by source', { timeout: 30_000 }, async () => {
    const { backend, report, path } = await worker(0, 2);
    try {
      await backend.ready?.();
      const { value, ms } = await timed(() => report(1, T));
      expect(value.ok).toBe(true);
      expect(ms).toBeLessThan(350);
      // Answered after its sync, which padded the log to a page boundary first.
      expect(statSync(openLogPath(path, 2)).size % PAGE_BYTES).toBe(0);
      for (let i = 0; i < 5; i++) expect((await report(2, T + i * 3000)).ok).toBe(true);
      await backend.sealOpenLog!(T + 3_600_000);
      const io = openLogIoTotals(2)!;
      expect(io.syncedReports).toBe(6);
      expect(io.syncs).toBeGreaterThanOrEqual(6);
      expect(io.seals).toBe(1);
      // Samples are a few hundred bytes each, framing included.
      expect(io.sampleBytes / 6).toBeGreaterThan(50);
      expect(io.sampleBytes / 6).toBeLessThan(1000);
      // Each sync padded the log to a page (open-log.ts): up to a page per sync.
      expect(io.paddingBytes).toBeGreaterThan(0);
      expect(io.paddingBytes).toBeLessThan(io.syncs * PAGE_BYTES);
      expect(io.blockBytes).toBeGreaterThan(0);
    } finally {
      await backend.close();
    }
  });
});
