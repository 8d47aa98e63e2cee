import type BetterSqlite3 from 'better-sqlite3';
import { IngestCore } from '../domain/ingest/ingest-core.js';
import { nodeReportDecoder } from '../protocol/decode-node-report.js';
import { EngineRunner } from '../store/sqlite/engine-runner.js';
import { MetricsEngine, type WriteSlot } from '../store/sqlite/metrics-engine.js';

/**
 * Everything that runs beside the metrics writer connection: the engine (raw history, current
 * projection, rollups, retention) and the report pipeline that commits one batch at a time. Built once
 * per writer thread, or on the main thread for in-memory databases.
 */
export function createIngestHost(
  db: BetterSqlite3.Database,
  now: () => number,
  staleAfterSec: number,
  slot?: WriteSlot,
  maxDevicesPerNode?: number,
) {
  const runner = new EngineRunner(new MetricsEngine(db, now, slot, maxDevicesPerNode));
  const core = new IngestCore(nodeReportDecoder(), runner, now, staleAfterSec);
  return { runner, core };
}
