import { afterEach, describe, expect, it, vi } from 'vitest';
import { GroupSync, SYNCS_IN_FLIGHT, type SyncFn } from '../../src/workers/group-sync.js';

/** A sync that ends when the test says so, in the order the test chooses. */
function manualSyncs() {
  const running: Array<(err: Error | null) => void> = [];
  const fn: SyncFn = (done) => void running.push(done);
  return { fn, running };
}

function setup() {
  const log = manualSyncs();
  const wal = manualSyncs();
  const released: Array<{ answers: number[]; error: Error | null }> = [];
  const sync = new GroupSync<number>(log.fn, wal.fn, (answers, _buffers, error) =>
    released.push({ answers, error }),
  );
  return { log, wal, released, sync };
}

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
});

describe('group sync with a commit delay', () => {
  function delayed(delayMs: number, shareBytes: number) {
    const log = manualSyncs();
    const wal = manualSyncs();
    const released: number[][] = [];
    const started: number[] = [];
    let now = 0;
    let pending = 0;
    const sync = new GroupSync<number>(
      log.fn,
      wal.fn,
      (answers) => released.push(answers),
      undefined,
      {
        delayMs,
        shareBytes,
        pendingBytes: () => pending,
        onStart: (n) => {
          started.push(n);
          pending = 0;
        },
        clock: () => now,
      },
    );
    return {
      log,
      released,
      started,
      sync,
      advance: (ms: number) => {
        now += ms;
        vi.advanceTimersByTime(ms);
      },
      append: (bytes: number) => (pending += bytes),
    };
  }

  afterEach(() => vi.useRealTimers());

  it('holds a young, small group until the delay since its oldest answer ends', () => {
    vi.useFakeTimers();
    const { log, started, sync, advance, append } = delayed(10, 16_384);
    append(200);
    sync.after([1], false, undefined);
    advance(6);
    append(200);
    sync.after([2], false, undefined);
    expect(log.running).toHaveLength(0);
    advance(4);
    // Timed from the first answer, not the last: one sync for both.
    expect(started).toEqual([2]);
    expect(log.running).toHaveLength(1);
  });

  it('starts at once when enough bytes wait to share the tail page', () => {
    vi.useFakeTimers();
    const { log, started, sync, append } = delayed(10, 1_000);
    append(600);
    sync.after([1], false, undefined);
    expect(log.running).toHaveLength(0);
    append(600);
    sync.after([2], false, undefined);
    expect(started).toEqual([2]);
    expect(log.running).toHaveLength(1);
  });

  it('starts at once when the file was replaced (fewer bytes than at the last sync)', () => {
    vi.useFakeTimers();
    const { log, sync, append } = delayed(10, 1_000);
    append(-50);
    sync.after([1], false, undefined);
    expect(log.running).toHaveLength(1);
  });

  it('answers only when the delayed sync has ended, and resolves idle after it', async () => {
    vi.useFakeTimers();
    const { log, released, sync, advance, append } = delayed(10, 16_384);
    append(100);
    sync.after([7], false, undefined);
    let idle = false;
    void sync.idle().then(() => (idle = true));
    advance(10);
    expect(released).toEqual([]);
    log.running[0]!(null);
    expect(released).toEqual([[7]]);
    await Promise.resolve();
    expect(idle).toBe(true);
  });
});
