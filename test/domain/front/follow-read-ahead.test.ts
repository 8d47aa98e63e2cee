import { describe, expect, it } from 'vitest';
import { FrontState } from '../../../src/domain/front/front-state.js';
import { runtimeView } from '../../../src/domain/front/runtime-view.js';
import { validateMetricsReport } from '../../../src/domain/ingest/validate-metrics.js';
import type { CurrentRow, FrontRepo } from '../../../src/store/ports.js';
import { agentReport } from '../../support/agent-payloads.js';
import { frontNodeRow } from '../../support/front-rows.js';

const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const NODES = [1, 2, 3, 4, 5, 6, 7];

const nodeRow = (id: number) => frontNodeRow(id, { staticJson: null });

/** A node's stored current projection, as another instance's ingest leaves it. */
function stored(nodeId: number, receivedAt: number): CurrentRow {
  const v = validateMetricsReport(agentReport({ seq: receivedAt % 1000 }));
  return {
    nodeId,
    receivedAt,
    reportedAt: v.reportedAt,
    firstReceivedAt: T0,
    runtimeJson: JSON.stringify(runtimeView(v.metrics, receivedAt, v.reportedAt, 'x')),
    smartJson: null,
    thermalJson: null,
    pressureJson: null,
  };
}

/** The shared store another instance writes, with the reads this instance made of it. */
function sharedStore() {
  const currents = new Map<number, CurrentRow>();
  const reads: Array<readonly number[] | undefined> = [];
  let gate: Promise<void> | undefined;
  const repo: FrontRepo = {
    liveNodes: async (ids) => (ids ?? NODES).map(nodeRow),
    currentRows: async (ids) => {
      reads.push(ids);
      // Taken when the statement starts, as PostgreSQL's snapshot is.
      const rows = (ids ?? [...currents.keys()]).flatMap((id) => currents.get(id) ?? []);
      await gate;
      return rows;
    },
  };
  const report = (nodeId: number, at: number) => currents.set(nodeId, stored(nodeId, at));
  /** The same store read without counting: what an instance following eagerly would show. */
  const eagerRepo: FrontRepo = {
    liveNodes: async (ids) => (ids ?? NODES).map(nodeRow),
    currentRows: async () => [...currents.values()],
  };
  const hold = (p: Promise<void> | undefined): void => {
    gate = p;
  };
  return { repo, eagerRepo, reads, report, hold };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !what(); i++) await sleep(5);
  expect(what()).toBe(true);
}

async function following(windowMs = 10_000) {
  const s = sharedStore();
  let t = T0;
  const clock = { now: () => t };
  const front = new FrontState({ repo: s.repo, staleAfterSec: 30, warn: () => {} });
  await front.load();
  front.readAheadOfReaders({ clock, windowMs, gapMs: 1, renderSlice: 2 });
  s.reads.length = 0;
  return { ...s, front, advance: (ms: number) => (t += ms) };
}

describe('front state: reading ahead of front view readers', () => {
  it('reads and renders nothing while nobody reads', async () => {
    const { front, reads, report } = await following();
    for (const id of NODES) report(id, T0 + id);
    front.follow(NODES);
    front.follow([1, 2]);
    await sleep(30);
    expect(reads).toEqual([]);
    expect(front.unreadFollowed).toBe(NODES.length);
    expect(front.unrenderedViews).toBe(0);
  });

  it('after a read, catches up and renders in the background until the readers are gone', async () => {
    const { front, reads, report, advance, eagerRepo } = await following(5000);
    expect(front.catchUp()).toBeUndefined(); // a dashboard poll: the reader is seen
    for (const id of NODES) report(id, T0 + 100 + id);
    front.follow(NODES);
    await until(() => front.unreadFollowed === 0 && front.unrenderedViews === 0);
    expect(reads).toEqual([NODES]);
    // The next poll finds nothing to read, and the views the eager way would have installed.
    expect(front.catchUp()).toBeUndefined();
    const eager = new FrontState({ repo: eagerRepo, staleAfterSec: 30, warn: () => {} });
    await eager.load();
    for (const id of NODES) {
      expect(front.receivedAt(id)).toBe(T0 + 100 + id);
      expect(front.json(id)).toBe(eager.json(id));
    }
    // More reports while the reader is still about: read in one more background catch-up.
    advance(4000);
    report(3, T0 + 4000);
    front.follow([3]);
    await until(() => front.unreadFollowed === 0 && front.unrenderedViews === 0);
    expect(reads).toEqual([NODES, [3]]);
    expect(front.receivedAt(3)).toBe(T0 + 4000);
    // No reader for longer than the window: lazy again.
    advance(1001);
    report(4, T0 + 5001);
    front.follow([4]);
    await sleep(30);
    expect(reads).toHaveLength(2);
    expect(front.unreadFollowed).toBe(1);
    expect(front.receivedAt(4)).toBe(T0 + 104);
    // The next reader catches up itself, and wakes the read-ahead again.
    await front.catchUp();
    expect(front.receivedAt(4)).toBe(T0 + 5001);
    report(5, T0 + 5002);
    front.follow([5]);
    await until(() => front.unreadFollowed === 0);
    expect(reads).toEqual([NODES, [3], [4], [5]]);
  });

  it('a reader arriving during a background catch-up still waits for every report noted before it', async () => {
    const { front, reads, report, hold } = await following();
    expect(front.catchUp()).toBeUndefined();
    let release!: () => void;
    hold(new Promise<void>((r) => (release = r)));
    report(1, T0 + 1);
    front.follow([1]);
    await until(() => reads.length === 1); // the background read is under way
    // Node 2 reported after that read's snapshot: a reader now must see it.
    report(2, T0 + 2);
    front.follow([2]);
    const read = front.catchUp()!;
    expect(read).toBeDefined();
    hold(undefined);
    release();
    await read;
    expect(front.receivedAt(1)).toBe(T0 + 1);
    expect(front.receivedAt(2)).toBe(T0 + 2);
    expect(reads).toEqual([[1], [2]]);
  });

  it('stops reading ahead when stopped', async () => {
    const { front, reads, report } = await following();
    expect(front.catchUp()).toBeUndefined();
    front.stopReadingAhead();
    report(1, T0 + 1);
    front.follow([1]);
    await sleep(30);
    expect(reads).toEqual([]);
  });

  it('keeps the nodes of a failed background read for the next reader, and says so', async () => {
    const s = sharedStore();
    const warned: string[] = [];
    const front = new FrontState({
      repo: s.repo,
      staleAfterSec: 30,
      warn: (msg) => warned.push(msg),
    });
    await front.load();
    front.readAheadOfReaders({ clock: { now: () => T0 }, gapMs: 1 });
    expect(front.catchUp()).toBeUndefined();
    const lost = Promise.reject(new Error('connection lost'));
    // Handled here too, so the rejection is not reported before the read-ahead awaits it.
    lost.catch(() => {});
    s.hold(lost);
    s.report(1, T0 + 1);
    front.follow([1]);
    await until(() => warned.length === 1);
    // Not retried (nor warned again) after every note: the next try waits `retryMs`.
    front.follow([1]);
    await sleep(30);
    expect(warned).toEqual(['reading ahead of front view readers failed']);
    expect(front.unreadFollowed).toBe(1);
    s.hold(undefined);
    await front.catchUp();
    expect(front.receivedAt(1)).toBe(T0 + 1);
  });
});
