import type BetterSqlite3 from 'better-sqlite3';
import { IngestCore } from '../domain/ingest/ingest-core.js';
import { nodeReportDecoder } from '../http/decode-node-report.js';
import { EngineRunner } from '../store/sqlite/engine-runner.js';
import { MetricsEngine } from '../store/sqlite/metrics-engine.js';
import { ReportWriter } from '../store/sqlite/report-writer.js';

/**
 * Everything that runs beside the metrics writer connection: the engine (raw history, current
 * projection, rollups, retention), the group-commit writer and the report pipeline. Built once
 * per writer thread, or on the main thread for in-memory databases.
 */
export function createIngestHost(db: BetterSqlite3.Database, now: () => number) {
  const runner = new EngineRunner(new MetricsEngine(db, now));
  const writer = new ReportWriter({ request: (req) => runner.handle(req), close: async () => {} });
  const core = new IngestCore(nodeReportDecoder(), writer, now);
  return { runner, writer, core };
}
