import { describe, expect, it } from 'vitest';
import { FollowBacklog } from '../../../src/domain/front/follow-backlog.js';

/** A read that waits until the test lets it finish. */
function gatedReads() {
  const reads: Array<{ ids: readonly number[]; finish: (err?: Error) => void }> = [];
  const backlog = new FollowBacklog(
    (ids) =>
      new Promise<void>((resolve, reject) =>
        reads.push({ ids, finish: (err) => (err ? reject(err) : resolve()) }),
      ),
  );
  return { backlog, reads };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('FollowBacklog', () => {
  it('reads nothing until asked, then what was noted, once', async () => {
    const { backlog, reads } = gatedReads();
    expect(backlog.catchUp()).toBeUndefined();
    backlog.note([3, 1]);
    backlog.note([3]);
    await tick();
    expect(reads).toEqual([]);
    expect(backlog.size).toBe(2);
    const first = backlog.catchUp()!;
    const second = backlog.catchUp()!;
    await tick();
    expect(reads.map((r) => r.ids)).toEqual([[3, 1]]);
    reads[0]!.finish();
    await Promise.all([first, second]);
    expect(backlog.size).toBe(0);
    expect(backlog.catchUp()).toBeUndefined();
  });

  it('a caller waits for the nodes noted before it asked, not for those noted after', async () => {
    const { backlog, reads } = gatedReads();
    backlog.note([1]);
    let early = false;
    const a = backlog.catchUp()!.then(() => (early = true));
    await tick();
    backlog.note([2]);
    let late = false;
    const b = backlog.catchUp()!.then(() => (late = true));
    reads[0]!.finish();
    await a;
    // Node 2 was noted while the first read ran: the second caller needs a read of its own.
    expect([early, late]).toEqual([true, false]);
    await tick();
    expect(reads.map((r) => r.ids)).toEqual([[1], [2]]);
    reads[1]!.finish();
    await b;
    expect(late).toBe(true);
  });

  it('keeps the nodes of a failed read for the next caller', async () => {
    const { backlog, reads } = gatedReads();
    backlog.note([5]);
    const failed = backlog.catchUp()!;
    await tick();
    reads[0]!.finish(new Error('connection lost'));
    await expect(failed).rejects.toThrow('connection lost');
    expect(backlog.size).toBe(1);
    const retried = backlog.catchUp()!;
    await tick();
    expect(reads[1]!.ids).toEqual([5]);
    reads[1]!.finish();
    await retried;
    expect(backlog.catchUp()).toBeUndefined();
  });
});
