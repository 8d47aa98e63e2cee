import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { Logger } from '../platform/logger.js';
import type { Database } from '../store/schema.js';
import type { HistoryRepo, HistoryStorageRepo, Store } from '../store/ports.js';
import type { IngestBackend } from '../workers/ingest-backend-port.js';
import type { Job } from '../jobs/scheduler.js';

/** What the composition root tells an engine about the metrics pipeline it should build. */
export interface IngestBackendOptions {
  log: Logger;
  now: () => number;
  /** Seconds without a report after which a node's view renders as offline. */
  staleAfterSec: number;
  /** Distinct devices one node may have (node_max_devices). */
  maxDevicesPerNode: number;
  /** Worker threads for the pipeline (ingest_threads); 0: from the cores available. */
  threads: number;
  /**
   * `worker`: off the HTTP thread where the engine can (SQLite: worker threads with their own
   * connections to the file); `inline`: on the calling thread. An engine may ignore it.
   */
  mode: 'worker' | 'inline';
  /**
   * Other instances read this one's current views from the database (several instances):
   * every current report is written through, not every 30-45 s.
   */
  shared?: boolean;
}

/**
 * What several Dash instances on one database share (deps-cluster.ts): connections for the
 * notification bus, advisory locks and shared counters, and the names that keep installs in
 * other schemas of the same database apart (channels and advisory locks are database-wide).
 */
export interface SharedDatabase {
  url: string;
  pool: pg.Pool;
  db: Kysely<Database>;
  channel: string;
  leaderName: string;
  jobScope: string;
}

/**
 * One database engine as the composition root sees it: the engine-neutral store plus the
 * engine-specific pieces around it (the ingest pipeline, history reads, storage facts, size,
 * and the engine's own maintenance jobs). Everything that touches a connection directly stays
 * behind this interface, so `deps.ts` never names an engine.
 */
export interface EngineKit {
  readonly store: Store;
  /** Whether the data lives only in this process (SQLite `:memory:`: tests). */
  readonly ephemeral: boolean;
  /** A history reader; each call gives its own (with its own caches). */
  historyReader(): HistoryRepo;
  /** Database size, sealed history and the size budget (admin storage panel). */
  readonly storage: HistoryStorageRepo;
  /** Bytes the database occupies, for `dash_database_size_bytes`. */
  databaseBytes(): Promise<number>;
  /** The metrics pipeline: decode, validate, commit, and rollups and retention. */
  ingestBackend(opts: IngestBackendOptions): IngestBackend;
  /** Clock-driven jobs only this engine needs (PostgreSQL: history partitions). */
  jobs(config: { rawRetentionDays: number }): Job[];
  /** Present when several instances can serve one database (PostgreSQL). */
  readonly shared?: SharedDatabase;
}
