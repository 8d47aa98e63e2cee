import { HOST_METRICS } from '../../src/protocol/history-metrics.js';
import { exclusiveJob } from '../../src/jobs/exclusive-job.js';
import { postgresJobLocks } from '../../src/store/postgres/job-locks.js';
import { LeaderLock } from '../../src/store/postgres/leader-lock.js';
import { PgMetricsEngine } from '../../src/store/postgres/metrics-engine.js';
import { openPostgresStore } from '../../src/store/postgres/open.js';
import { metricsWrite } from './metrics-writes.js';

const MEM = HOST_METRICS.indexOf('mem.used');
export const JOB_TURN_MS = 100;

export type InstanceMessage =
  { acked: Array<[number, number]> } | { leading: boolean; instance: string };

/**
 * One Dash instance's share of the work on a shared PostgreSQL schema, as several instances
 * run it: reports of nodes 1-4 committed in batches by the PostgreSQL ingest engine (each
 * report carries a unique marker in mem.used; `tell` gets a batch's markers after COMMIT), a
 * job every JOB_TURN_MS under the cluster's advisory lock (each run recorded in t_job_runs
 * with its turn), and a bid for the alert leadership. Runs until stopped (or killed).
 */
export async function runInstance(
  url: string,
  firstMarker: number,
  name: string,
  tell: (m: InstanceMessage) => void,
  /** Advisory locks are database-wide: a name of its own per test run. */
  lockPrefix = 'test',
): Promise<{ stop(): Promise<void> }> {
  const store = await openPostgresStore(url, Date.now(), { max: 3 });
  const engine = new PgMetricsEngine(store.pool, Date.now, store.partitions, undefined, true);
  const leader = new LeaderLock(url, {
    name: `${lockPrefix}-alerts`,
    retryMs: 100,
    onChange: (leading) => tell({ leading, instance: name }),
    onError: () => {},
  });
  await leader.start();
  const job = exclusiveJob(
    {
      name: `${lockPrefix}-turns`,
      nextRunAt: (now) => now + JOB_TURN_MS,
      runOnce: async (now) => {
        await store.pool.query('INSERT INTO t_job_runs (turn, instance) VALUES ($1, $2)', [
          Math.floor(now / JOB_TURN_MS),
          name,
        ]);
        // Long enough that the other instance's turn meets the lock held.
        await new Promise((r) => setTimeout(r, 20));
      },
    },
    postgresJobLocks(store.pool),
  );
  let stopped = false;
  const jobs = (async () => {
    while (!stopped) {
      await job.runOnce(Date.now()).catch(() => {});
      const now = Date.now();
      await new Promise((r) => setTimeout(r, JOB_TURN_MS - (now % JOB_TURN_MS) + 1));
    }
  })();
  let marker = firstMarker;
  const ingest = (async () => {
    while (!stopped) {
      const writes = [];
      const markers: Array<[number, number]> = [];
      for (let i = 0; i < 8; i++) {
        const node = 1 + (i % 4);
        const w = metricsWrite(node, Date.now(), { seq: marker, deadline: Infinity });
        w.host[MEM] = marker;
        markers.push([node, marker++]);
        writes.push(w);
      }
      const out = await engine.commitBatch(writes);
      if (out.some((o) => o !== 'current' && o !== 'history')) throw new Error(String(out));
      tell({ acked: markers });
    }
  })();
  return {
    async stop() {
      stopped = true;
      await Promise.all([jobs, ingest]);
      await leader.stop();
      await store.close();
    },
  };
}
