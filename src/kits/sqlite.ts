import type { SqliteStore } from '../store/sqlite/open.js';
import { historyReader } from '../store/sqlite/history-reader.js';
import { sqliteHistoryStorage } from '../store/sqlite/history-storage.js';
import { sqliteDatabaseBytes } from '../store/sqlite/database-size.js';
import { sealLeftLogs } from '../store/sqlite/open-logs.js';
import {
  ingestThreadsFor,
  inlineIngestBackend,
  workerIngestBackend,
} from '../workers/ingest-backend.js';
import type { EngineKit } from './engine-kit.js';

/**
 * SQLite: worker threads with their own connections to the file commit metrics, each to its
 * open-block log (an in-memory database has no second connection, so its pipeline runs on the
 * calling thread and writes rows). What the logs of a stopped or crashed run hold is sealed
 * into the database first, before anything reads it. `commitDelayMs`: ingest_commit_delay.
 */
export function sqliteKit(store: SqliteStore, path: string, commitDelayMs?: number): EngineKit {
  const ephemeral = path === ':memory:';
  if (!ephemeral) sealLeftLogs(store.raw, path);
  return {
    store,
    ephemeral,
    historyReader: () => historyReader(store.raw, store.openLogs),
    storage: sqliteHistoryStorage(store.raw, store.openLogs),
    databaseBytes: async () => sqliteDatabaseBytes(store.raw, path),
    ingestBackend(o) {
      return o.mode === 'worker' && !ephemeral
        ? workerIngestBackend(path, o.log, o.now, o.staleAfterSec, {
            maxDevicesPerNode: o.maxDevicesPerNode,
            commitDelayMs,
            threads: ingestThreadsFor(o.threads),
          })
        : inlineIngestBackend(store.raw, o.now, o.staleAfterSec, o.maxDevicesPerNode);
    },
    jobs: () => [],
  };
}
