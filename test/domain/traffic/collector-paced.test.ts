import { describe, expect, it } from 'vitest';
import {
  FLUSH_CHUNK,
  TrafficCollector,
  type CollectorLimits,
} from '../../../src/domain/traffic/collector.js';
import type { NodeCycle } from '../../../src/domain/traffic/cycle-bounds.js';
import { silentLogger } from '../../../src/platform/logger.js';
import { BACKGROUND_PACE, StepPacer } from '../../../src/platform/step-pacer.js';
import type { TrafficBatch } from '../../../src/store/ports.js';
import { fakeTrafficRepo, feedReports } from '../../support/fake-traffic-repo.js';

/**
 * A flush whose chunks run on a thread the report batches need too (SQLite's first ingest
 * thread) is paced: a gap after each chunk, and fewer whole nodes per chunk while the chunks'
 * transactions run long (docs/ingest-performance.md, "Traffic flush pacing").
 */

const T0 = Date.UTC(2026, 10, 24, 12);
const CYCLE: NodeCycle = { mode: 'calendar_month', startDay: 1, anchorDate: '', zone: 'UTC' };
/** 2 interfaces × 20 reports: the samples of one node in a flush. */
const PER_NODE = 40;

/** 20 reports of every node from the `from`-th on, interleaved as they arrive, 3 s apart. */
const feed = (c: TrafficCollector, nodes: number[], from = 0) =>
  feedReports(c, T0, nodes, 20, from);

const nodes = (n: number) => Array.from({ length: n }, (_, i) => n - i);

/**
 * A collector storing into a fake repository whose chunks each "take" `stepMs(samples)` ms on
 * the storing thread, paced by a real StepPacer whose gaps are recorded and not waited.
 */
function paced(
  stepMs: (samples: number) => number,
  onPause?: (c: TrafficCollector, gaps: number[]) => Promise<void> | void,
  limits?: CollectorLimits,
) {
  const { repo, batches } = fakeTrafficRepo();
  const gaps: number[] = [];
  const pacer = new StepPacer(
    () => 0,
    async (ms) => {
      gaps.push(ms);
      await onPause?.(c, gaps);
    },
    BACKGROUND_PACE,
  );
  const c = new TrafficCollector(
    repo,
    async () => CYCLE,
    silentLogger,
    async (b) => {
      await repo.apply(b);
      return stepMs(b.counters.length);
    },
    limits,
    pacer,
  );
  return { c, batches, gaps, pacer };
}

/** Every row of the batches, in a fixed order: what the store would hold. */
function contents(batches: TrafficBatch[]) {
  const key = (r: object) => JSON.stringify(r);
  const rows = (pick: (b: TrafficBatch) => object[]) => batches.flatMap(pick).map(key).sort();
  return {
    counters: rows((b) => b.counters),
    ifaces: rows((b) => b.ifaces),
    facts: rows((b) => b.facts),
    usage: rows((b) => b.usage),
  };
}

const sizes = (batches: TrafficBatch[]) => batches.map((b) => b.counters.length);

describe('TrafficCollector paced', () => {
  it('halves the chunks while their transactions run long, down to a sixteenth', async () => {
    const { c, batches, gaps } = paced(() => 100);
    feed(c, nodes(300));
    expect(await c.flush()).toBe(300 * PER_NODE);
    // Whole nodes of 40 samples up to 4,096, 2,048, … 256 samples, then 256 to the end.
    const full = FLUSH_CHUNK / PER_NODE;
    const expected = [1, 2, 4, 8, 16].map((d) => Math.floor(full / d) * PER_NODE);
    expect(sizes(batches).slice(0, 5)).toEqual(expected);
    for (const n of sizes(batches).slice(5)) expect(n).toBeLessThanOrEqual(expected[4]!);
    expect(
      sizes(batches)
        .slice(5, -1)
        .every((n) => n === expected[4]),
    ).toBe(true);
    // A gap before every chunk: the first none (no step yet), then twice the step, capped.
    expect(gaps).toHaveLength(batches.length);
    expect(gaps[0]).toBe(0);
    expect(gaps.slice(1).every((g) => g === 100)).toBe(true);
    expect(c.lastFlush).toEqual({
      chunks: batches.length,
      samples: 300 * PER_NODE,
      longestStepMs: 100,
      smallestScale: 1 / 16,
    });
  });

  it('grows the chunks back while transactions are short, and keeps the scale between flushes', async () => {
    let ms = 100;
    const { c, batches } = paced(() => ms);
    feed(c, nodes(300));
    await c.flush();
    const first = batches.length;
    // The next flush starts where the last one ended (a sixteenth), then doubles per short step.
    ms = 1;
    feed(c, nodes(300), 20);
    await c.flush();
    const next = sizes(batches.slice(first));
    expect(next.slice(0, 5)).toEqual([240, 480, 1000, 2040, 4080]);
  });

  it('stores every sample once, each node in one chunk, the same rows as unpaced', async () => {
    const slow = paced((n) => n / 10); // 4,096 samples: 410 ms; 256: 26 ms
    const plain = fakeTrafficRepo();
    const unpaced = new TrafficCollector(plain.repo, async () => CYCLE, silentLogger);
    for (const c of [slow.c, unpaced]) {
      feed(c, nodes(300));
      await c.flush();
      feed(c, nodes(300), 20);
      await c.flush();
    }
    expect(slow.batches.length).toBeGreaterThan(plain.batches.length * 4);
    const chunkOf = new Map<string, number>();
    slow.batches.forEach((b, k) => {
      for (const r of b.counters) {
        // Each node's samples of one flush in one chunk (flush = samples before/after report 20).
        const key = `${r.nodeId}/${r.at < T0 + 20 * 3000 ? 1 : 2}`;
        expect(chunkOf.get(key) ?? k).toBe(k);
        chunkOf.set(key, k);
      }
    });
    expect(chunkOf.size).toBe(600);
    const stored = contents(slow.batches);
    expect(stored.counters).toHaveLength(2 * 300 * PER_NODE);
    expect(new Set(stored.counters).size).toBe(stored.counters.length);
    expect(stored).toEqual(contents(plain.batches));
  });

  it('lets reads in between chunks, each sample either stored or pending, never both', async () => {
    const seen: string[] = [];
    const run = {} as ReturnType<typeof paced>;
    /** At a gap: every fed sample of the node is stored or pending, exactly once. */
    const check = async () => {
      for (const nodeId of [1, 150, 290]) {
        const p = await run.c.withPending(nodeId, 'eth0', async () =>
          run.batches
            .flatMap((b) => b.counters)
            .filter((r) => r.nodeId === nodeId && r.iface === 'eth0'),
        );
        const all = [...p.value.map((r) => r.at), ...p.samples.map((s) => s.at)];
        expect(all).toEqual(Array.from({ length: 20 }, (_, k) => T0 + k * 3000 + nodeId));
        // A pending sample follows the stored cursor (none stored yet: no cursor).
        const last = p.value.at(-1);
        expect(p.prev).toEqual(
          p.samples.length > 0 && last ? { at: last.at, rx: last.rx, tx: last.tx } : undefined,
        );
        seen.push(`${nodeId}:${p.value.length}`);
      }
    };
    Object.assign(
      run,
      paced(() => 100, check),
    );
    feed(run.c, nodes(300));
    await run.c.flush();
    // Reads ran between chunks and saw nodes both before and after their chunk.
    expect(seen).toContain('1:0');
    expect(seen).toContain('1:20');
    expect(seen).toContain('290:0');
    expect(seen).toContain('290:20');
  });

  it('stops pacing once the queue behind the flush reaches the early-flush bound', async () => {
    // Reports keep coming during the flush: node 999, 40 samples per gap.
    const { c, batches, gaps } = paced(
      () => 100,
      (self, gaps) => feed(self, [999], gaps.length * 20),
      { earlyFlushAt: 200, queueLimit: 100_000 },
    );
    feed(c, nodes(300));
    await c.flush();
    // Paced while fewer than 200 samples waited behind it (five gaps: 5 × 40), then full
    // chunks without gaps. (The samples behind it start an early flush of their own.)
    const own = sizes(batches.filter((b) => b.counters.every((r) => r.nodeId !== 999)));
    expect(own.slice(0, 5)).toEqual([4080, 2040, 1000, 480, 240]);
    expect(own.slice(5, -1).length).toBeGreaterThan(0);
    expect(own.slice(5, -1).every((n) => n === 4080)).toBe(true);
    expect(gaps.slice(0, 5)).toEqual([0, 100, 100, 100, 100]);
  });

  it('stores full chunks without gaps once hurried (a stop)', async () => {
    const { c, batches, gaps } = paced(() => 100);
    feed(c, nodes(300));
    c.hurry();
    await c.flush();
    expect(sizes(batches)).toEqual([4080, 4080, 3840]);
    expect(gaps).toEqual([]);
  });
});
