import { parentPort, workerData } from 'node:worker_threads';
import type { RenderFacts } from '../domain/front/render.js';
import { ReportPreparer, type Prepared, type RawReport } from '../domain/ingest/ingest-core.js';
import { systemClock } from '../platform/clock.js';
import { nameThisThread } from '../platform/thread-names.js';
import { nodeReportDecoder } from '../protocol/decode-node-report.js';
import { packPrepared } from './packed-prepared.js';

/**
 * A preparation thread for PostgreSQL ingest: decodes, checks and renders batches of reports
 * (`ReportPreparer`) and sends back what to commit; it holds no connection (the HTTP thread
 * commits over its pool). Messages in: {id, reports} (one batch of this thread's nodes),
 * {facts}. Out: {id, prepared} (one per batch, in order).
 */
export type ToPrepareWorker =
  { id: number; reports: RawReport[] } | { facts: Array<[number, RenderFacts | null]> };

export interface FromPrepareWorker {
  id: number;
  prepared: readonly Prepared[];
}

export interface PrepareWorkerData {
  staleAfterSec: number;
  /** Serialise runtime views here (`ReportPreparer`'s runtimeAsJson). */
  runtimeAsJson: boolean;
}

if (!parentPort) throw new Error('prepare-worker must run as a worker thread');
const port = parentPort;
nameThisThread('prepare');
const { staleAfterSec, runtimeAsJson } = workerData as PrepareWorkerData;
// Deadlines arrive converted to the system clock; the device limit is the committer's to
// answer (settleBatch runs on the HTTP thread).
const core = new ReportPreparer(
  nodeReportDecoder(),
  () => systemClock.now(),
  staleAfterSec,
  () => undefined,
  runtimeAsJson,
);

port.on('message', (msg: ToPrepareWorker) => {
  if ('facts' in msg) {
    for (const [nodeId, facts] of msg.facts) core.setFacts(nodeId, facts);
    return;
  }
  const { prepared } = core.prepareBatch(msg.reports);
  const packed = packPrepared(prepared);
  port.postMessage({ id: msg.id, prepared } satisfies FromPrepareWorker, packed ? [packed] : []);
});
