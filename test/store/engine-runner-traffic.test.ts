import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_PACE, StepPacer } from '../../src/platform/step-pacer.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/open.js';
import { createIngestHost } from '../../src/workers/ingest-host.js';

/**
 * The ingest thread's runner steps a traffic chunk (one transaction, paced by the collector)
 * before the next step of a rollup in progress, and answers with the chunk's time, which paces
 * the collector's next chunks (docs/ingest-performance.md, "Traffic flush pacing").
 */

const T0 = Date.UTC(2026, 10, 24, 12);
let store: SqliteStore;
afterEach(async () => store.close());

describe('EngineRunner with traffic chunks', () => {
  it('runs a chunk between the steps of a rollup, not after the whole rollup', async () => {
    store = openSqliteStore(':memory:', T0);
    let steps = 0;
    const host = createIngestHost(store.raw, () => T0, 30, undefined, undefined, undefined, {
      pacer: () =>
        new StepPacer(
          () => steps++,
          () => new Promise((r) => setImmediate(r)),
          BACKGROUND_PACE,
        ),
    });
    const order: string[] = [];
    const rollup = host.runner.handle({ type: 'rollup', now: T0 + 3_600_000 }).then(() => {
      order.push('rollup');
    });
    await new Promise((r) => setImmediate(r));
    const counters = [{ nodeId: 1, iface: 'eth0', at: T0, rx: 1, tx: 1 }];
    const chunk = host.runner
      .handle({ type: 'traffic', batch: { counters, ifaces: [], facts: [], usage: [] } })
      .then((ms) => {
        order.push('traffic');
        // The chunk's transaction, timed on the runner's clock (one tick of this fake one).
        expect(ms).toBe(1);
      });
    await Promise.all([rollup, chunk]);
    expect(order).toEqual(['traffic', 'rollup']);
    expect(store.raw.prepare('SELECT count(*) FROM traffic_counter_minute').pluck().get()).toBe(1);
  });

  it('carries a failed chunk to its waiter', async () => {
    store = openSqliteStore(':memory:', T0);
    const host = createIngestHost(store.raw, () => T0, 30);
    store.raw.exec('DROP TABLE traffic_cycle_usage');
    const usage = [
      {
        nodeId: 1,
        iface: 'eth0',
        cycleStart: T0,
        cycleEnd: T0 + 1,
        inBytes: 1,
        outBytes: 1,
        sampleCount: 1,
        gapCount: 0,
        resetCount: 0,
        peakIn: 0,
        peakOut: 0,
        peakTotal: 0,
        coveredFrom: T0,
        coveredUntil: T0,
      },
    ];
    await expect(
      host.runner.handle({
        type: 'traffic',
        batch: { counters: [], ifaces: [], facts: [], usage },
      }),
    ).rejects.toThrow(/traffic_cycle_usage/);
  });
});
