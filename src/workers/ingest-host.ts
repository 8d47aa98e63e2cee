import type BetterSqlite3 from 'better-sqlite3';
import { IngestCore } from '../domain/ingest/ingest-core.js';
import { nodeReportDecoder } from '../protocol/decode-node-report.js';
import { EngineRunner } from '../store/sqlite/engine-runner.js';
import type { OpenLogs } from '../store/sqlite/history-source.js';
import { MetricsEngine } from '../store/sqlite/metrics-engine.js';
import type { OpenLogFile } from '../store/sqlite/open-log.js';
import { OpenLogCommitter } from '../store/sqlite/open-log-committer.js';
import type { WriteSlot } from '../store/sqlite/report-rules.js';

/**
 * Everything that runs beside the metrics writer connection: the writer (the open-block log of
 * this thread when it has one, else raw rows and the current projection), rollups, retention,
 * and the report pipeline that commits one batch at a time. Built once per writer thread, or on
 * the main thread for in-memory databases.
 */
export function createIngestHost(
  db: BetterSqlite3.Database,
  now: () => number,
  staleAfterSec: number,
  slot?: WriteSlot,
  maxDevicesPerNode?: number,
  openLog?: { file: OpenLogFile; readers: OpenLogs },
  pace?: ConstructorParameters<typeof EngineRunner>[2],
) {
  const committer = openLog
    ? new OpenLogCommitter(db, openLog.file, now, slot, maxDevicesPerNode)
    : undefined;
  const runner = new EngineRunner(
    committer ?? new MetricsEngine(db, now, slot, maxDevicesPerNode),
    openLog?.readers,
    pace,
  );
  const core = new IngestCore(nodeReportDecoder(), runner, now, staleAfterSec);
  return { runner, core, committer };
}
