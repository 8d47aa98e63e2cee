import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import { threadPacer } from '../../platform/step-pacer.js';
import type { NodesRepo, TrafficAdjustmentsRepo, TrafficRepo } from '../../store/ports.js';
import type { AcceptedReport, ReportEvents } from '../ingest/report-events.js';
import type { NodeEvents } from '../nodes/node-events.js';
import type { TrafficSettingsService } from '../settings/traffic-settings.js';
import { TrafficAdjustments } from './adjustments.js';
import {
  TrafficCollector,
  type ChunkPacer,
  type QueuedReport,
  type StoreBatch,
} from './collector.js';
import { NodeCycles } from './node-cycles.js';
import { TrafficReads } from './reads.js';
import { TrafficRebuild } from './rebuild.js';
import { storeMonthlySnapshots } from './snapshots.js';

const DAY_MS = 86_400_000;
const PRUNE_BATCH = 5000;

export interface Traffic {
  collector: TrafficCollector;
  reads: TrafficReads;
  rebuild: TrafficRebuild;
  /** Recorded bills (calibration). */
  adjustments: TrafficAdjustments;
  /** Snapshots of closed cycles, then retention (the hourly job). */
  maintain(now: number): Promise<void>;
}

/**
 * The interfaces of an accepted report with both counters known (decoded beside the report, no
 * parse here). One the report lacks is unknown, not 0: the interface skips this sample, so the
 * next complete one pairs with the last complete one instead of looking like a counter reset.
 */
function countersOf(event: AcceptedReport): QueuedReport['ifaces'] {
  const out: QueuedReport['ifaces'] = [];
  for (const c of event.counters) {
    if (c.rx !== null && c.tx !== null) out.push({ name: c.name, rx: c.rx, tx: c.tx });
  }
  return out;
}

/** Builds traffic accounting and hooks it to accepted reports and node changes. */
export function createTraffic(d: {
  nodes: NodesRepo;
  traffic: TrafficRepo;
  adjustments: TrafficAdjustmentsRepo;
  settings: TrafficSettingsService;
  clock: Clock;
  log: Logger;
  appZone: string;
  retentionDays: number;
  reportEvents: ReportEvents;
  nodeEvents: NodeEvents;
  /**
   * Several instances: only the one leading collection queues counters (it is handed the
   * reports other instances accepted too); the others leave them to it.
   */
  collects?: () => boolean;
  /**
   * Where the collector's batches are written, when not through `traffic` on this thread
   * (the ingest writer thread, which keeps the statements off the HTTP thread).
   */
  storeBatch?: StoreBatch;
  /**
   * `storeBatch` runs on a thread the report batches need too: a gap after each chunk, and
   * fewer nodes per chunk while they run long (a pacer of this thread's, unless one is given).
   */
  paced?: boolean | ChunkPacer;
}): Traffic {
  const retentionMs = d.retentionDays * DAY_MS;
  const cycles = new NodeCycles(d.nodes, d.appZone);
  const collector = new TrafficCollector(
    d.traffic,
    (id) => cycles.get(id),
    d.log,
    d.storeBatch,
    undefined,
    d.paced === true ? threadPacer() : d.paced || undefined,
  );
  // Only queue the counters here: this runs on the HTTP thread of the ingest path.
  d.reportEvents.onAccepted((event) => {
    if (d.collects?.() === false) return;
    collector.enqueue({
      nodeId: event.nodeId,
      receivedAt: event.receivedAt,
      ifaces: countersOf(event),
    });
  });
  d.nodeEvents.on(async (event) => {
    if (event.type !== 'updated') return;
    const from = await cycles.refresh(event.nodeId, d.clock.now());
    if (from !== undefined) await collector.replayLite(event.nodeId, from);
  });
  const reads = new TrafficReads({
    nodes: d.nodes,
    traffic: d.traffic,
    adjustments: d.adjustments,
    settings: d.settings,
    clock: d.clock,
    appZone: d.appZone,
    retentionMs,
    pending: collector,
  });
  const adjustments = new TrafficAdjustments({
    repo: d.adjustments,
    reads,
    clock: d.clock,
    appZone: d.appZone,
  });
  const rebuild = new TrafficRebuild({
    nodes: d.nodes,
    traffic: d.traffic,
    settings: d.settings,
    clock: d.clock,
    retentionMs,
    onError: (err) => d.log.error({ err }, 'traffic rebuild failed'),
    exclusive: (work) => collector.exclusive(work),
  });
  return {
    collector,
    reads,
    rebuild,
    adjustments,
    async maintain(now) {
      await storeMonthlySnapshots({
        nodes: d.nodes,
        traffic: d.traffic,
        settings: d.settings,
        appZone: d.appZone,
        retentionMs,
        now,
      });
      while ((await d.traffic.prune(now - retentionMs, PRUNE_BATCH)) >= PRUNE_BATCH) {
        // keep deleting in small statements
      }
    },
  };
}
