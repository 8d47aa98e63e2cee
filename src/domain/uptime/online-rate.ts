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
 * The legacy online-rate series: reports received per completed bucket divided by the reports
 * expected at the node's interval. Counts come from the finalised uptime minutes, never from a
 * scan of raw history.
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
    const current = Math.floor(this.clock.now() / stepMs) * stepMs;
    const from = current - POINTS * stepMs;
    const counts = await this.repo.reportCounts(id, from, current, stepMs);
    const expected = Math.ceil(spec.stepSec / Math.max(1, node.intervalSec));
    const points: OnlinePoint[] = [];
    for (let ts = from; ts < current; ts += stepMs) {
      const rate = (counts.get(ts) ?? 0) / expected;
      points.push({ ts, rate, status: rate >= 0.995 ? 0 : rate >= 0.99 ? 1 : 2 });
    }
    return { serverId: id, range: spec.name, stepSec: spec.stepSec, points };
  }
}
