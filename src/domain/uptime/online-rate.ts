import { AppError } from '../../errors/app-error.js';
import type { Clock } from '../../platform/clock.js';
import type { UptimeRepo } from '../../store/ports.js';
import type { Viewer } from './uptime-service.js';

const RANGES = {
  '24h': { name: '24h', stepSec: 1800 },
  '7d': { name: '7d', stepSec: 12_600 },
  '7days': { name: '7d', stepSec: 12_600 },
} as const;
const POINTS = 48;
/**
 * Bucket grid of the earlier contract (reference §4.4): TimescaleDB's time_bucket default origin,
 * Monday 2000-01-03 00:00 UTC. 30-minute buckets fall on the epoch grid anyway; 210-minute ones
 * do not (the grids are 90 minutes apart).
 */
const BUCKET_ORIGIN = Date.UTC(2000, 0, 3);
/** Expected report interval when the node has reported none (reference §4.4). */
const DEFAULT_INTERVAL_SEC = 3;

export interface OnlinePoint {
  ts: number;
  status: 0 | 1 | 2;
  rate: number;
}

export interface OnlineSeries {
  serverId: number;
  range: '24h' | '7d';
  stepSec: number;
  points: OnlinePoint[];
}

/**
 * The legacy online-rate series, with its earlier contract and data source (spec §4.2, reference
 * §4.4): the node's stored reports per completed bucket divided by the reports expected at its
 * interval, not clamped. Counts are of stored reports whether or not the uptime job finalised
 * their minutes (see UptimeRepo.reportCounts), so minutes before it first ran count too.
 */
export class OnlineRateService {
  constructor(
    private readonly repo: UptimeRepo,
    private readonly clock: Clock,
  ) {}

  async series(
    viewer: Viewer,
    serverId: string | undefined,
    range: string | undefined,
  ): Promise<OnlineSeries> {
    const id = Number(serverId);
    if (!serverId || !/^\d+$/.test(serverId) || !Number.isSafeInteger(id) || id <= 0) {
      throw new AppError('invalid_request', 'server_id must be a positive integer');
    }
    const spec = RANGES[(range ?? '') as keyof typeof RANGES] as
      (typeof RANGES)[keyof typeof RANGES] | undefined;
    if (!spec) throw new AppError('invalid_request', 'range must be 24h or 7d');
    const node = await this.repo.node(id);
    if (!node) throw new AppError('not_found');
    if (!viewer.admin && !node.guestVisible) throw new AppError('forbidden');
    const stepMs = spec.stepSec * 1000;
    const now = this.clock.now();
    const current = BUCKET_ORIGIN + Math.floor((now - BUCKET_ORIGIN) / stepMs) * stepMs;
    const from = current - POINTS * stepMs;
    const counts = await this.repo.reportCounts(id, from, current, stepMs);
    const interval = node.intervalSec > 0 ? node.intervalSec : DEFAULT_INTERVAL_SEC;
    const expected = Math.max(1, Math.ceil(spec.stepSec / interval));
    const points: OnlinePoint[] = [];
    for (let ts = from; ts < current; ts += stepMs) {
      const rate = (counts.get(ts) ?? 0) / expected;
      points.push({ ts, rate, status: rate >= 0.995 ? 0 : rate >= 0.99 ? 1 : 2 });
    }
    return { serverId: id, range: spec.name, stepSec: spec.stepSec, points };
  }
}
