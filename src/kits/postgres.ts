import type { PostgresStore } from '../store/postgres/open.js';
import { postgresHistoryReader } from '../store/postgres/history-reader.js';
import { postgresHistoryStorage } from '../store/postgres/history-storage.js';
import { createPgMetricsSide } from '../workers/pg-metrics-side.js';
import { historyPartitionsJob } from '../jobs/history-partitions.js';
import { preparePool } from '../workers/prepare-pool.js';
import { ingestThreadsFor } from '../workers/ingest-backend.js';
import { createHash } from 'node:crypto';
import type { EngineKit, SharedDatabase } from './engine-kit.js';

/**
 * PostgreSQL: reports are decoded, checked and rendered on worker threads in the `worker`
 * ingest mode (on the calling thread in `inline`), and committed over the pool from the
 * calling thread (the database's work happens in its own processes). History is partitioned
 * by day; the hourly partition job keeps the coming days' partitions ready.
 */
export function postgresKit(store: PostgresStore, url: string, schema: string): EngineKit {
  return {
    store,
    ephemeral: false,
    historyReader: () => postgresHistoryReader(store.pool),
    storage: postgresHistoryStorage(store.pool),
    async databaseBytes() {
      const r = await store.pool.query<{ bytes: number }>(
        'SELECT pg_database_size(current_database()) AS bytes',
      );
      return r.rows[0]?.bytes ?? 0;
    },
    ingestBackend: (o) =>
      createPgMetricsSide(store.pool, {
        now: o.now,
        staleAfterSec: o.staleAfterSec,
        partitions: store.partitions,
        maxDevicesPerNode: o.maxDevicesPerNode,
        sharedCurrent: o.shared === true,
        preparer:
          o.mode === 'worker'
            ? preparePool({
                threads: ingestThreadsFor(o.threads),
                log: o.log,
                now: o.now,
                staleAfterSec: o.staleAfterSec,
                // Every current report goes to node_live: serialise its runtime view on the thread.
                runtimeAsJson: o.shared === true,
              })
            : undefined,
      }).ingestBackend,
    jobs: ({ rawRetentionDays }) => [
      historyPartitionsJob(store.historyPartitions, rawRetentionDays),
    ],
    shared: sharedDatabase(store, url, schema),
  };
}

/**
 * The install in the `public` schema keeps the plain names; one in another schema of the same
 * database (tests, several installs) gets names of its own, since channels and advisory locks
 * are database-wide.
 */
function sharedDatabase(store: PostgresStore, url: string, schema: string): SharedDatabase {
  const named = schema !== 'public';
  const tag = createHash('sha256').update(schema).digest('hex').slice(0, 16);
  return {
    url,
    pool: store.pool,
    db: store.db,
    channel: named ? `dash_cluster_${tag}` : 'dash_cluster',
    leaderName: named ? `alerts.${tag}` : 'alerts',
    jobScope: named ? tag : '',
  };
}
