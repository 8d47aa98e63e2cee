import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postgresJobLocks } from '../../../src/store/postgres/job-locks.js';
import type { PostgresStore } from '../../../src/store/postgres/open.js';
import { createPool } from '../../../src/store/postgres/pool.js';
import { exclusiveJob } from '../../../src/jobs/exclusive-job.js';
import { openSharedPostgres, POSTGRES_AVAILABLE } from '../engines.js';
import { POSTGRES_TEST_URL } from '../../support/postgres.js';

describe.skipIf(!POSTGRES_AVAILABLE)('jobs once across instances (advisory locks)', () => {
  let store: PostgresStore;
  beforeEach(async () => {
    store = await openSharedPostgres();
  });
  afterEach(async () => store.close());

  it('runs a job on one instance at a time; the other skips its turn', async () => {
    // Two instances: two pools on the same schema, so two database sessions.
    const { rows } = await store.pool.query<{ s: string }>('SELECT current_schema() AS s');
    const url = new URL(POSTGRES_TEST_URL);
    url.searchParams.set('options', `-c search_path=${rows[0]!.s}`);
    const otherPool = createPool(url.toString(), { max: 1 });
    try {
      const a = postgresJobLocks(store.pool);
      const b = postgresJobLocks(otherPool);
      const name = `t${Math.random().toString(36).slice(2)}`;
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let entered = false;
      const first = a.runExclusive(name, async () => {
        entered = true;
        await held;
        return 'a';
      });
      // Wait until A holds the lock (a fixed sleep is too short on a loaded machine).
      while (!entered) await new Promise((r) => setTimeout(r, 5));
      expect(await b.runExclusive(name, async () => 'b')).toEqual({ ran: false });
      expect(await b.runExclusive(`${name}-other`, async () => 'b')).toEqual({
        ran: true,
        value: 'b',
      });
      release();
      expect(await first).toEqual({ ran: true, value: 'a' });
      expect(await b.runExclusive(name, async () => 'b')).toEqual({ ran: true, value: 'b' });

      // A job wrapped for several instances runs once per turn however many instances try.
      let runs = 0;
      const job = {
        name,
        nextRunAt: (now: number) => now + 1000,
        runOnce: async () => {
          runs++;
          await new Promise((r) => setTimeout(r, 100));
        },
      };
      await Promise.all([exclusiveJob(job, a).runOnce(0), exclusiveJob(job, b).runOnce(0)]);
      expect(runs).toBe(1);
      expect(exclusiveJob(job, a).nextRunAt(5)).toBe(1005);
    } finally {
      await otherPool.end();
    }
  });

  it('frees the lock when the holding run fails', async () => {
    const locks = postgresJobLocks(store.pool);
    await expect(
      locks.runExclusive('failing', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await locks.runExclusive('failing', async () => 1)).toEqual({ ran: true, value: 1 });
  });
});
