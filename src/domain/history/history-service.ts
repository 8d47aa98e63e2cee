import { AppError } from '../../errors/app-error.js';
import type { Clock } from '../../platform/clock.js';
import type { HistoryAgg, HistoryPoint, HistoryRepo, HistorySource } from '../../store/ports.js';
import type { SystemSettingsService } from '../settings/system-settings.js';
import { isDeviceMetric, isHostMetric, requiresDevice } from '../../protocol/history-metrics.js';

interface RangeSpec {
  windowMs: number;
  stepMs: number;
  source: HistorySource;
}

/** Reference §4.5: the range picks the window, the bucket and the source; nothing else changes. */
export const HISTORY_RANGES: Record<string, RangeSpec> = {
  '30m': { windowMs: 30 * 60_000, stepMs: 3_000, source: 'raw' },
  '1h': { windowMs: 3_600_000, stepMs: 6_000, source: 'raw' },
  '12h': { windowMs: 12 * 3_600_000, stepMs: 60_000, source: 'raw' },
  '24h': { windowMs: 24 * 3_600_000, stepMs: 120_000, source: 'raw' },
  '1w': { windowMs: 7 * 86_400_000, stepMs: 900_000, source: '15m' },
  '15d': { windowMs: 15 * 86_400_000, stepMs: 1_800_000, source: '15m' },
  '30d': { windowMs: 30 * 86_400_000, stepMs: 3_600_000, source: '1h' },
};
const AGGS: readonly HistoryAgg[] = ['avg', 'max', 'min', 'last'];

/**
 * Live nodes by id, with their guest visibility (undefined: no live node has that id). The front
 * state serves it from the node records it keeps in step with admin changes on every instance,
 * so a read costs no store round trip for the lookup.
 */
export interface LiveNodeLookup {
  ensureNode(
    nodeId: number,
  ): { guestVisible: boolean } | undefined | Promise<{ guestVisible: boolean } | undefined>;
}

export interface HistoryRequest {
  serverId?: string;
  metric?: string;
  range?: string;
  agg?: string;
  device?: string;
}

export interface HistorySeries {
  serverId: number;
  metric: string;
  range: string;
  agg: HistoryAgg;
  stepSec: number;
  points: HistoryPoint[];
}

function bad(message: string): never {
  throw new AppError('invalid_request', message);
}

/**
 * History reads: private by default; guests only with history_guest_access_mode=by_node (else 403)
 * and a guest-visible node (else 404, like an absent one). Aggregate ranges include the newest
 * raw samples (the store adds the tail).
 */
export class HistoryService {
  constructor(
    private readonly history: HistoryRepo,
    private readonly nodes: LiveNodeLookup,
    private readonly settings: SystemSettingsService,
    private readonly clock: Clock,
  ) {}

  async series(viewer: { admin: boolean }, req: HistoryRequest): Promise<HistorySeries> {
    const id = Number(req.serverId);
    if (!req.serverId || !/^\d+$/.test(req.serverId) || !Number.isSafeInteger(id) || id <= 0) {
      bad('server_id must be a positive integer');
    }
    const metric = req.metric ?? '';
    if (!isHostMetric(metric) && !isDeviceMetric(metric)) bad(`unknown metric "${metric}"`);
    const range = HISTORY_RANGES[req.range ?? ''];
    if (!range) bad(`range must be one of ${Object.keys(HISTORY_RANGES).join(', ')}`);
    const agg = (req.agg ?? 'avg') as HistoryAgg;
    if (!AGGS.includes(agg)) bad(`agg must be one of ${AGGS.join(', ')}`);
    const device = req.device?.trim() || undefined;
    if (isDeviceMetric(metric) && requiresDevice(metric) && device === undefined)
      bad(`${metric} needs a device`);
    if (!viewer.admin && (await this.settings.get()).history_guest_access_mode !== 'by_node') {
      throw new AppError('forbidden', 'history is not available to guests');
    }
    // Spec §7: 403 is only for guest history switched off as a whole; a node the guest may not
    // see answers like an absent one, so guests cannot probe which hidden ids exist.
    const node = await this.nodes.ensureNode(id);
    if (!node || (!viewer.admin && !node.guestVisible)) throw new AppError('not_found');
    const now = this.clock.now();
    const from = Math.floor((now - range.windowMs) / range.stepMs) * range.stepMs;
    const points = await this.history.points({
      nodeId: id,
      metric,
      ...(isDeviceMetric(metric) && device !== undefined ? { device } : {}),
      source: range.source,
      from,
      to: now + 1,
      stepMs: range.stepMs,
      agg,
    });
    return {
      serverId: id,
      metric,
      range: req.range as string,
      agg,
      stepSec: range.stepMs / 1000,
      points,
    };
  }
}
