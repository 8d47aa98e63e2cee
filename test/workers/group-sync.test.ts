import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  GroupSync,
  SYNCS_IN_FLIGHT,
  type CommitDelay,
  type SyncFn,
} from '../../src/workers/group-sync.js';

/** A sync that ends when the test says so, in the order the test chooses. */
function manualSyncs() {
  const running: Array<(err: Error | null) => void> = [];
  const fn: SyncFn = (done) => void running.push(done);
  return { fn, running };
}

function setup(delay?: CommitDelay, clock?: () => number) {
  const log = manualSyncs();
  const wal = manualSyncs();
  const released: Array<{ answers: number[]; error: Error | null }> = [];
  const sync = new GroupSync<number>({
    syncLog: log.fn,
    syncWal: wal.fn,
    release: (answers, _buffers, error) => released.push({ answers, error }),
    delay,
    clock,
  });
  return { log, wal, released, sync };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('group sync', () => {
  it('starts a sync for a batch committed while one is in flight, and answers it when it ends', () => {
    const { log, released, sync } = setup();
    sync.after([1, 2], false, undefined);
    sync.after([3], false, undefined);
    expect(log.running).toHaveLength(2);
    // The second sync ends first: its batch is answered at once, not after the first one.
    log.running[1]!(null);
    expect(released).toEqual([{ answers: [3], error: null }]);
    log.running[0]!(null);
    expect(released.map((r) => r.answers)).toEqual([[3], [1, 2]]);
  });

  it(`groups the batches that commit while ${SYNCS_IN_FLIGHT} syncs run into the next one`, () => {
    const { log, released, sync } = setup();
    for (let i = 0; i < SYNCS_IN_FLIGHT; i++) sync.after([i], false, undefined);
    sync.after([10], false, undefined);
    sync.after([11], false, undefined);
    expect(log.running).toHaveLength(SYNCS_IN_FLIGHT);
    log.running[0]!(null);
    // A sync started only now covers both (they committed before it started).
    expect(log.running).toHaveLength(SYNCS_IN_FLIGHT + 1);
    log.running[SYNCS_IN_FLIGHT]!(null);
    expect(released.at(-1)).toEqual({ answers: [10, 11], error: null });
  });

  it('waits for the WAL too when a batch of the group wrote to SQLite', () => {
    const { log, wal, released, sync } = setup();
    sync.after([1], true, undefined);
    log.running[0]!(null);
    expect(released).toEqual([]);
    wal.running[0]!(null);
    expect(released).toEqual([{ answers: [1], error: null }]);
  });

  it('answers a failed sync’s batches with its error', () => {
    const { log, released, sync } = setup();
    sync.after([1], false, undefined);
    log.running[0]!(new Error('EIO'));
    expect(released[0]!.error?.message).toBe('EIO');
  });

  it('runs quiet work when no sync is in flight, and starts none before it has run', () => {
    const { log, released, sync } = setup();
    sync.after([1], false, undefined);
    sync.after([2], false, undefined);
    const order: string[] = [];
    sync.whenQuiet(() => order.push('quiet'));
    sync.after([3], false, undefined);
    expect(log.running).toHaveLength(2);
    log.running[0]!(null);
    expect(order).toEqual([]);
    expect(log.running).toHaveLength(2); // no new sync while the quiet work waits
    log.running[1]!(null);
    expect(order).toEqual(['quiet']);
    expect(log.running).toHaveLength(3);
    log.running[2]!(null);
    expect(released.map((r) => r.answers)).toEqual([[1], [2], [3]]);
  });

  it('resolves idle once every answer handed over has been sent', async () => {
    const { log, sync } = setup();
    sync.after([1], false, undefined);
    let idle = false;
    const done = sync.idle().then(() => (idle = true));
    await Promise.resolve();
    expect(idle).toBe(false);
    log.running[0]!(null);
    await done;
    expect(idle).toBe(true);
  });

  it('waits the commit delay for more batches, and starts at once when enough bytes wait', () => {
    vi.useFakeTimers();
    let now = 0;
    let size = 0;
    const { log, released, sync } = setup(
      { delayMs: 10, shareBytes: 1000, size: () => size },
      () => now,
    );
    size = 100;
    sync.after([1], false, undefined);
    now = 4;
    size = 200;
    sync.after([2], false, undefined);
    expect(log.running).toHaveLength(0);
    now = 10;
    vi.advanceTimersByTime(10);
    expect(log.running).toHaveLength(1);
    log.running[0]!(null);
    expect(released).toEqual([{ answers: [1, 2], error: null }]);
    // 1,000 bytes appended since that sync started: no waiting.
    size = 1200;
    sync.after([3], false, undefined);
    expect(log.running).toHaveLength(2);
  });

  it('with a slow sync in flight, starts the next once the delay has passed, not when it ends', () => {
    vi.useFakeTimers();
    let now = 0;
    const { log, released, sync } = setup(
      { delayMs: 10, shareBytes: 1 << 20, size: () => 0 },
      () => now,
    );
    sync.after([1], false, undefined);
    now = 10;
    vi.advanceTimersByTime(10);
    sync.after([2], false, undefined);
    now = 20;
    vi.advanceTimersByTime(10);
    expect(log.running).toHaveLength(2);
    log.running[1]!(null);
    expect(released).toEqual([{ answers: [2], error: null }]);
  });
});
