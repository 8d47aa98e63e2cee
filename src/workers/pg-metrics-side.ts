/**
 * The metrics side of Dash on PostgreSQL, for the composition root (deps.ts, branch pg-serve):
 *
 *   const side = createPgMetricsSide(store.pool, {
 *     now: () => clock.now(), staleAfterSec, partitions: store.partitions,
 *     maxDevicesPerNode: config.nodeMaxDevices,
 *   });
 *   side.ingestBackend  // IngestBackend: POST /api/node/metrics, rollup and retention jobs
 *   side.history        // HistoryRepo: history reads (raw, 15 m, 1 h), NIC samples, devices
 *   side.storage        // HistoryStorageRepo: GET /api/admin/system/storage
 *
 * The same services the SQLite side gives (workers/ingest-backend.ts, store/sqlite/
 * history-reader.ts, history-storage.ts), with the same answers. Rollup and retention runs take
 * a job lock (store/postgres/job-locks.ts), so with several instances on one database each run
 * happens once; an instance that finds the lock taken reports an empty run.
 */
import type pg from 'pg';
import type {
  HistoryRepo,
  HistoryStorageRepo,
  MetricsMaintenance,
  RetentionRunResult,
  RollupRunResult,
} from '../store/ports.js';
import { PgMetricsEngine } from '../store/postgres/metrics-engine.js';
import type { PartitionGuard } from '../store/postgres/partition-guard.js';
import { postgresHistoryReader, rollupWatermarks } from '../store/postgres/history-reader.js';
import { postgresRollup } from '../store/postgres/history-rollup.js';
import { postgresRetention } from '../store/postgres/history-retention.js';
import { postgresHistoryStorage } from '../store/postgres/history-storage.js';
import { postgresJobLocks } from '../store/postgres/job-locks.js';
import type { IngestBackend } from './ingest-backend-port.js';
import { pgIngestBackend } from './pg-ingest-backend.js';
import type { BatchPreparer } from './batch-preparer.js';

export interface PgMetricsSideOptions {
  now: () => number;
  /** The front view's observation.stale_after_sec. */
  staleAfterSec: number;
  /** The store's partition guard (PostgresStore.partitions). */
  partitions: PartitionGuard;
  maxDevicesPerNode?: number;
  /**
   * Several instances share the database: every current report is also written to the
   * unlogged node_live (the other instances' front views re-read it; docs/postgresql.md
   * "Between instances"); node_current keeps its 30-45 s cadence.
   */
  sharedCurrent?: boolean;
  /** Where batches are prepared (pgIngestBackend's option): the calling thread when absent. */
  preparer?: BatchPreparer;
}

export interface PgMetricsSide {
  ingestBackend: IngestBackend;
  history: HistoryRepo;
  storage: HistoryStorageRepo;
}

export function createPgMetricsSide(pool: pg.Pool, opts: PgMetricsSideOptions): PgMetricsSide {
  const engine = new PgMetricsEngine(
    pool,
    opts.now,
    opts.partitions,
    opts.maxDevicesPerNode,
    opts.sharedCurrent === true,
  );
  const locks = postgresJobLocks(pool);
  const maintenance: MetricsMaintenance = {
    async rollup(at): Promise<RollupRunResult> {
      const run = await locks.runExclusive('metrics-rollup', () => postgresRollup(pool, at));
      if (run.ran) return run.value;
      const wm = await rollupWatermarks(pool);
      return { watermark15m: wm['15m'], watermark1h: wm['1h'], buckets: 0 };
    },
    async retention(at, days, maxBytes): Promise<RetentionRunResult> {
      const run = await locks.runExclusive('metrics-retention', () =>
        postgresRetention(pool, opts.partitions, engine.devices, at, days, maxBytes),
      );
      return run.ran ? run.value : { raw: 0, rollup15m: 0, rollup1h: 0, devices: 0 };
    },
  };
  return {
    ingestBackend: pgIngestBackend(engine, maintenance, opts),
    history: postgresHistoryReader(pool),
    storage: postgresHistoryStorage(pool),
  };
}
