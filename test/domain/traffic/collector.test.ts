import { describe, expect, it } from 'vitest';
import { TrafficCollector } from '../../../src/domain/traffic/collector.js';
import type { NodeCycle } from '../../../src/domain/traffic/cycle-bounds.js';
import { silentLogger } from '../../../src/platform/logger.js';
import type { TrafficBatch, TrafficRepo } from '../../../src/store/ports.js';
import { fakeTrafficRepo, feedReports } from '../../support/fake-traffic-repo.js';

const T0 = Date.UTC(2026, 10, 24, 12);
const CYCLE: NodeCycle = { mode: 'calendar_month', startDay: 1, anchorDate: '', zone: 'UTC' };

function collector(
  repo: TrafficRepo,
  limits?: { earlyFlushAt: number; queueLimit: number },
  storeBatch?: (b: TrafficBatch) => Promise<void>,
) {
  return new TrafficCollector(
    repo,
    async () => CYCLE,
    silentLogger,
    storeBatch ?? ((b) => repo.apply(b)),
    limits,
  );
}

const feed = (c: TrafficCollector, nodes: number[], reports: number, from = 0) =>
  feedReports(c, T0, nodes, reports, from);

describe('TrafficCollector', () => {
  it('stores each node in one transaction per flush, whatever order reports arrived in', async () => {
    const { repo, batches } = fakeTrafficRepo();
    const c = collector(repo);
    const nodes = Array.from({ length: 300 }, (_, i) => 300 - i);
    feed(c, nodes, 20);
    expect(c.pending).toBe(300 * 20 * 2);
    expect(await c.flush()).toBe(300 * 20 * 2);
    expect(c.pending).toBe(0);
    // 12,000 samples in chunks of at most 4,096 whole nodes: 3 transactions, and no node in two.
    expect(batches).toHaveLength(3);
    const seen = new Map<number, number>();
    batches.forEach((b, k) => {
      for (const row of b.counters) {
        expect(seen.get(row.nodeId) ?? k).toBe(k);
        seen.set(row.nodeId, k);
      }
    });
    expect(seen.size).toBe(300);
    // Nodes in ascending id (neighbouring rows on neighbouring pages), each in time order.
    const first = batches[0]!.counters;
    expect(first[0]!.nodeId).toBe(1);
    const eth0 = first.filter((r) => r.nodeId === 1 && r.iface === 'eth0').map((r) => r.at);
    expect(eth0).toEqual([...eth0].sort((a, b) => a - b));
    expect(eth0).toHaveLength(20);
  });

  it('flushes early only past the memory bound, and refuses samples past the limit', async () => {
    const { repo, batches } = fakeTrafficRepo();
    const c = collector(repo, { earlyFlushAt: 100, queueLimit: 150 });
    feed(c, [1], 49); // 98 samples: under the bound, nothing stored
    await new Promise((r) => setImmediate(r));
    expect(batches).toHaveLength(0);
    feed(c, [1], 1, 49); // 100: flushed without the job
    await new Promise((r) => setImmediate(r));
    await c.flush();
    expect(batches.flatMap((b) => b.counters)).toHaveLength(100);
    // A stalled store: the queue stops at the limit instead of growing.
    const stalled = collector(repo, { earlyFlushAt: 1_000, queueLimit: 150 });
    feed(stalled, [2], 100);
    expect(stalled.pending).toBe(150);
  });

  it('hands reads the samples not stored yet, consistently with a flush in progress', async () => {
    const { repo } = fakeTrafficRepo();
    let release: (() => void) | undefined;
    const c = collector(repo, undefined, async (b) => {
      await new Promise<void>((r) => (release = r));
      await repo.apply(b);
    });
    feed(c, [1, 2], 4);
    const p = await c.withPending(1, 'eth0', async () => 'stored');
    expect(p.value).toBe('stored');
    expect(p.prev).toBeUndefined();
    expect(p.samples.map((s) => s.rx)).toEqual([0, 1000, 2000, 3000]);
    expect([...c.queuedIfaces(2).keys()]).toEqual(['eth0', 'eth1']);
    // A flush stores node 1's chunk; a read meanwhile waits for it, then sees the stored cursor.
    const flushed = c.flush();
    await new Promise((r) => setImmediate(r));
    expect(release).toBeDefined();
    let read = false;
    const during = c.withPending(1, 'eth0', async () => void (read = true));
    await new Promise((r) => setImmediate(r));
    expect(read).toBe(false);
    release!();
    await flushed;
    expect((await during).samples).toEqual([]);
    expect(read).toBe(true);
    feed(c, [1], 1, 4);
    const later = await c.withPending(1, 'eth0', async () => undefined);
    expect(later.prev).toEqual({ at: T0 + 3 * 3000 + 1, rx: 3000, tx: 30 });
    expect(later.samples).toEqual([{ at: T0 + 4 * 3000 + 1, rx: 4000, tx: 40 }]);
  });

  it('keeps a chunk that failed to store and stores it at the next flush', async () => {
    const { repo, batches } = fakeTrafficRepo();
    let fail = true;
    const c = collector(repo, undefined, async (b) => {
      if (fail) throw new Error('database is locked');
      await repo.apply(b);
    });
    feed(c, [1, 2], 3);
    await expect(c.flush()).rejects.toThrow('locked');
    expect(c.pending).toBe(12);
    feed(c, [1, 2], 1, 3);
    fail = false;
    expect(await c.flush()).toBe(16);
    expect(c.pending).toBe(0);
    const eth0 = batches
      .flatMap((b) => b.counters)
      .filter((r) => r.nodeId === 2 && r.iface === 'eth0');
    expect(eth0.map((r) => r.rx)).toEqual([0, 1000, 2000, 3000]);
  });

  it('forgets queued samples when told to (another instance now collects)', async () => {
    const { repo, batches } = fakeTrafficRepo();
    const c = collector(repo);
    feed(c, [1], 5);
    await c.discardQueued();
    expect(c.pending).toBe(0);
    expect(await c.flush()).toBe(0);
    expect(batches).toHaveLength(0);
  });
});
