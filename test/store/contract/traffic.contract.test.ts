import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TrafficBatch } from '../../../src/store/ports.js';
import { ENGINES, type EngineStore } from '../engines.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 24, 12);
const M5 = 300_000;

const fact = (bucket: number, inBytes: number) => ({
  nodeId: 1,
  iface: 'eth0',
  bucket,
  inBytes,
  outBytes: 2 * inBytes,
  validIn: 1,
  validOut: 1,
  validMs: M5,
  gapCount: 0,
  resetCount: 0,
});

const usage = (inBytes: number, peak: number, from: number, until: number) => ({
  nodeId: 1,
  iface: 'eth0',
  cycleStart: T0 - 10 * DAY,
  cycleEnd: T0 + 20 * DAY,
  inBytes,
  outBytes: inBytes,
  sampleCount: 1,
  gapCount: 0,
  resetCount: 1,
  peakIn: peak,
  peakOut: peak / 2,
  peakTotal: 1.5 * peak,
  coveredFrom: from,
  coveredUntil: until,
});

function batch(at: number, rx: number, extra: Partial<TrafficBatch> = {}): TrafficBatch {
  return {
    counters: [{ nodeId: 1, iface: 'eth0', at, rx, tx: rx * 2 }],
    ifaces: [{ nodeId: 1, iface: 'eth0', firstAt: at, lastAt: at, lastRx: rx, lastTx: rx * 2 }],
    facts: [],
    usage: [],
    ...extra,
  };
}

describe.each(ENGINES)('traffic repo on $name', ({ open }) => {
  let store: EngineStore;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(async () => store.close());

  it('stores counters and interface cursors; adds facts and folds accumulators', async () => {
    await store.traffic.apply(
      batch(T0, 100, { facts: [fact(T0, 10)], usage: [usage(10, 5.5, T0, T0 + 1000)] }),
    );
    await store.traffic.apply(
      batch(T0 + 3000, 200, {
        facts: [fact(T0, 5), fact(T0 + M5, 7)],
        usage: [usage(4, 2.5, T0 - 1000, T0 + 3000)],
      }),
    );
    expect(await store.traffic.ifaces(1)).toEqual([
      { nodeId: 1, iface: 'eth0', firstAt: T0, lastAt: T0 + 3000, lastRx: 200, lastTx: 400 },
    ]);
    expect(await store.traffic.ifaceStates()).toHaveLength(1);
    const facts = await store.traffic.facts(1, 'eth0', T0, T0 + 2 * M5);
    expect(facts.map((f) => [f.bucket, f.inBytes, f.outBytes, f.validMs])).toEqual([
      [T0, 15, 30, 2 * M5],
      [T0 + M5, 7, 14, M5],
    ]);
    expect(await store.traffic.usage(1, 'eth0', T0 - 10 * DAY)).toEqual({
      cycleStart: T0 - 10 * DAY,
      cycleEnd: T0 + 20 * DAY,
      inBytes: 14,
      outBytes: 14,
      sampleCount: 2,
      gapCount: 0,
      resetCount: 2,
      peakIn: 5.5,
      peakOut: 2.75,
      peakTotal: 8.25,
      coveredFrom: T0 - 1000,
      coveredUntil: T0 + 3000,
    });
    expect(await store.traffic.usageSince(1, 'eth0', T0)).toEqual([]);
    expect(await store.traffic.counters(1, T0, T0 + 3000)).toEqual([
      { nodeId: 1, iface: 'eth0', at: T0, rx: 100, tx: 200 },
    ]);
  });

  it('reads counters with the samples around a window, and the retained range', async () => {
    for (const [i, at] of [T0 - 2 * DAY, T0, T0 + 3000, T0 + 6000].entries()) {
      await store.traffic.apply(batch(at, 100 * (i + 1)));
    }
    const around = await store.traffic.countersAround(1, T0 + 1, T0 + 3001);
    expect(around.get('eth0')?.map((c) => c.at)).toEqual([T0, T0 + 3000, T0 + 6000]);
    expect(await store.traffic.counterRange(1)).toEqual({ first: T0 - 2 * DAY, last: T0 + 6000 });
    expect(await store.traffic.counterRange(2)).toBeUndefined();
  });

  it('applies a batch naming the same interface, bucket and cycle twice as two batches', async () => {
    const first = batch(T0, 100, {
      facts: [fact(T0, 10)],
      usage: [usage(10, 5.5, T0, T0 + 1000)],
    });
    const second = batch(T0 + 3000, 200, {
      facts: [fact(T0, 5), fact(T0 + M5, 7)],
      usage: [usage(4, 2.5, T0 - 1000, T0 + 3000)],
    });
    await store.traffic.apply({
      counters: [...first.counters, ...second.counters],
      ifaces: [...first.ifaces, ...second.ifaces],
      facts: [...first.facts, ...second.facts],
      usage: [...first.usage, ...second.usage],
    });
    expect(await store.traffic.ifaces(1)).toEqual([
      { nodeId: 1, iface: 'eth0', firstAt: T0, lastAt: T0 + 3000, lastRx: 200, lastTx: 400 },
    ]);
    const facts = await store.traffic.facts(1, 'eth0', T0, T0 + 2 * M5);
    expect(facts.map((f) => [f.bucket, f.inBytes, f.validMs])).toEqual([
      [T0, 15, 2 * M5],
      [T0 + M5, 7, M5],
    ]);
    expect(await store.traffic.usage(1, 'eth0', T0 - 10 * DAY)).toMatchObject({
      inBytes: 14,
      sampleCount: 2,
      peakIn: 5.5,
      peakTotal: 8.25,
      coveredFrom: T0 - 1000,
      coveredUntil: T0 + 3000,
    });
  });

  it('replaces a window of facts and drops snapshots it overlaps', async () => {
    await store.traffic.apply(batch(T0, 1, { facts: [fact(T0, 10), fact(T0 + M5, 20)] }));
    await store.traffic.putSnapshot(1, {
      iface: 'eth0',
      cycleStart: T0 - DAY,
      cycleEnd: T0 + DAY,
      statsJson: '{}',
      sealed: true,
    });
    await store.traffic.putSnapshot(1, {
      iface: 'eth0',
      cycleStart: T0 - 3 * DAY,
      cycleEnd: T0 - 2 * DAY,
      statsJson: '{"a":1}',
      sealed: false,
    });
    expect((await store.traffic.snapshots(1, 'eth0')).map((s) => s.sealed)).toEqual([true, false]);
    await store.traffic.replaceFacts(1, T0, T0 + M5, [{ ...fact(T0, 99), iface: 'eth0' }]);
    const facts = await store.traffic.facts(1, 'eth0', T0, T0 + 2 * M5);
    expect(facts.map((f) => f.inBytes)).toEqual([99, 20]);
    expect(await store.traffic.snapshots(1, 'eth0')).toEqual([
      {
        iface: 'eth0',
        cycleStart: T0 - 3 * DAY,
        cycleEnd: T0 - 2 * DAY,
        statsJson: '{"a":1}',
        sealed: false,
      },
    ]);
    await store.traffic.apply(batch(T0, 1, { usage: [usage(1, 1, T0, T0)] }));
    await store.traffic.deleteUsageFrom(1, T0);
    expect(await store.traffic.usage(1, 'eth0', T0 - 10 * DAY)).toBeUndefined();
  });

  it('prunes counters and facts before the cut-off until nothing is left', async () => {
    const old = T0 - 50 * DAY;
    await store.traffic.apply(batch(old, 1, { facts: [fact(old, 1)] }));
    await store.traffic.apply(batch(T0, 2, { facts: [fact(T0, 2)] }));
    const cut = T0 - 46 * DAY;
    while ((await store.traffic.prune(cut, 500)) >= 500);
    expect(await store.traffic.prune(cut, 500)).toBe(0);
    expect((await store.traffic.counters(1, 0, T0 + 1)).map((c) => c.at)).toEqual([T0]);
    expect((await store.traffic.facts(1, 'eth0', 0, T0 + 1)).map((f) => f.bucket)).toEqual([T0]);
  });

  it('reads every bucket whole while buckets stay open, close and wait to be stored', async () => {
    // A flush a minute for 90 minutes, each adding 1 to the bucket of its sample (SQLite keeps
    // the open bucket on the cursor row and closed ones in traffic_5m_held for up to an hour).
    for (let m = 0; m <= 90; m++) {
      const at = T0 + m * 60_000;
      await store.traffic.apply(batch(at, m, { facts: [fact(T0 + Math.floor(m / 5) * M5, 1)] }));
    }
    const all = await store.traffic.facts(1, 'eth0', T0 - DAY, T0 + DAY);
    expect(all.map((f) => [(f.bucket - T0) / M5, f.inBytes])).toEqual([
      ...Array.from({ length: 18 }, (_, i) => [i, 5]),
      [18, 1],
    ]);
    const some = await store.traffic.facts(1, 'eth0', T0 + 3 * M5, T0 + 5 * M5);
    expect(some.map((f) => [(f.bucket - T0) / M5, f.inBytes])).toEqual([
      [3, 5],
      [4, 5],
    ]);
    // A rebuilt window replaces what it covers, wherever it was kept.
    await store.traffic.replaceFacts(1, T0 + 10 * M5, T0 + 19 * M5, [
      { ...fact(T0 + 12 * M5, 7), iface: 'eth0' },
      { ...fact(T0 + 18 * M5, 3), iface: 'eth0' },
    ]);
    const after = await store.traffic.facts(1, 'eth0', T0 + 9 * M5, T0 + DAY);
    expect(after.map((f) => [(f.bucket - T0) / M5, f.inBytes])).toEqual([
      [9, 5],
      [12, 7],
      [18, 3],
    ]);
    // The next sample closes the rebuilt open bucket and adds to it as to any other.
    await store.traffic.apply(batch(T0 + 95 * 60_000, 95, { facts: [fact(T0 + 18 * M5, 1)] }));
    expect((await store.traffic.facts(1, 'eth0', T0 + 18 * M5, T0 + DAY))[0]?.inBytes).toBe(4);
  });
});
