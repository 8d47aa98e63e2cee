import { AppError } from '../../errors/app-error.js';
import type { Clock } from '../../platform/clock.js';
import { rfc3339 } from '../../platform/time-format.js';
import type { NodeRow, NodesRepo, TrafficAdjustmentsRepo, TrafficRepo } from '../../store/ports.js';
import type { CycleMode } from '../nodes/cycle.js';
import type { TrafficDay, TrafficSummary } from '../../protocol/traffic.js';
import type { TrafficSettingsService } from '../settings/traffic-settings.js';
import {
  cycleAt,
  localDays,
  previousCycle,
  recentCycles,
  type CycleWindow,
  type NodeCycle,
} from './cycle-bounds.js';
import { billingStats, presentStats, type DirectionMode, type RawStats } from './stats.js';
import { forecast } from './forecast.js';
import { forecastWithCalibration, withCalibration } from './calibration.js';
import { ReadScope, type PendingTraffic, type ReadContext } from './read-scope.js';

export type Period = 'current' | 'previous';

export interface TrafficQuery {
  nodeId: number;
  iface: string;
  /** The caller signed in as admin; guests are checked against guest_access_mode. */
  admin: boolean;
}

export type { TrafficSummary };
export type DailyItem = TrafficDay;

/** The node's cycle settings, with '' (app zone) resolved. */
export function nodeCycle(node: NodeRow, appZone: string): NodeCycle {
  return {
    mode: (node.trafficCycleMode === 'default'
      ? 'calendar_month'
      : node.trafficCycleMode) as CycleMode,
    startDay: node.trafficBillingStartDay,
    anchorDate: node.trafficBillingAnchorDate,
    zone: node.trafficBillingTimezone || appZone,
  };
}

/**
 * Traffic reads (spec §4.2, reference §6): each node's own cycle, the node's direction unless
 * it says `default`, Billing figures from 5-minute facts and Lite figures from the per-cycle
 * accumulators, plus calibrated figures where a recorded bill applies. Nothing here reads raw
 * history.
 */
export class TrafficReads {
  constructor(
    private readonly d: {
      nodes: NodesRepo;
      traffic: TrafficRepo;
      adjustments: TrafficAdjustmentsRepo;
      settings: TrafficSettingsService;
      clock: Clock;
      appZone: string;
      retentionMs: number;
      /** Samples the collector has not stored yet: reads include them. */
      pending?: PendingTraffic;
    },
  ) {}

  /** Node visible to the caller (404 absent; guests: 403 when traffic is closed to them). */
  async node(nodeId: number, admin: boolean): Promise<NodeRow> {
    const settings = await this.d.settings.get();
    if (!admin && settings.guest_access_mode !== 'by_node') {
      throw new AppError('forbidden', 'traffic statistics are not open to guests');
    }
    const node = await this.d.nodes.get(nodeId);
    if (!node || (!admin && !node.isGuestVisible)) throw new AppError('not_found');
    return node;
  }

  /** Interfaces ever reported (within retention), latest sample first, then by name. */
  async ifaces(nodeId: number, admin: boolean): Promise<Array<{ name: string }>> {
    await this.node(nodeId, admin);
    const rows: Array<{ iface: string; lastAt: number }> = await this.d.traffic.ifaces(nodeId);
    for (const [iface, q] of this.d.pending?.queuedIfaces(nodeId) ?? []) {
      const stored = rows.find((r) => r.iface === iface);
      if (stored) stored.lastAt = Math.max(stored.lastAt, q.lastAt);
      else rows.push({ iface, lastAt: q.lastAt });
    }
    rows.sort(
      (a, b) => b.lastAt - a.lastAt || (a.iface < b.iface ? -1 : a.iface > b.iface ? 1 : 0),
    );
    return rows.map((r) => ({ name: r.iface }));
  }

  /** A read of one node's interface: its settings, then figures computed on demand. */
  async scope(node: NodeRow, iface: string): Promise<ReadScope> {
    const settings = await this.d.settings.get();
    const direction = (
      node.trafficDirectionMode === 'default' ? settings.direction_mode : node.trafficDirectionMode
    ) as DirectionMode;
    const ifaceRow = (await this.d.traffic.ifaces(node.id)).find((r) => r.iface === iface);
    const ctx: ReadContext = {
      node,
      billing: settings.usage_mode === 'billing',
      direction,
      cycle: nodeCycle(node, this.d.appZone),
      // An interface whose first samples are not stored yet starts with them.
      firstSampleAt: ifaceRow?.firstAt ?? this.d.pending?.queuedIfaces(node.id).get(iface)?.firstAt,
    };
    return new ReadScope(this.d, ctx, iface, this.d.clock.now());
  }

  private async open(q: TrafficQuery): Promise<ReadScope> {
    return this.scope(await this.node(q.nodeId, q.admin), q.iface);
  }

  private summaryOf(
    scope: ReadScope,
    w: CycleWindow,
    raw: RawStats,
    stale = false,
  ): TrafficSummary {
    const { ctx, iface, now } = scope;
    const s: TrafficSummary = {
      server_id: ctx.node.id,
      iface,
      usage_mode: ctx.billing ? 'billing' : 'lite',
      direction_mode: ctx.direction,
      cycle: {
        mode: ctx.cycle.mode,
        billing_start_day: ctx.cycle.mode === 'calendar_month' ? 1 : ctx.cycle.startDay,
        timezone: ctx.cycle.zone,
        start: rfc3339(w.start),
        end: rfc3339(w.end),
      },
      stats: presentStats(raw, {
        direction: ctx.direction,
        p95Enabled: ctx.node.trafficP95Enabled,
        periodEnd: w.end,
        now,
        stale,
      }),
    };
    if (ctx.node.name !== '') s.server_name = ctx.node.name;
    if (ctx.cycle.anchorDate !== '') s.cycle.billing_anchor_date = ctx.cycle.anchorDate;
    return s;
  }

  /** The current cycle (spec §4.2 summary), with a forecast to its end. */
  async summary(q: TrafficQuery): Promise<TrafficSummary> {
    const scope = await this.open(q);
    const { ctx, now } = scope;
    const w = cycleAt(ctx.cycle, now);
    const { raw, facts } = await scope.cycle(w);
    const s = this.summaryOf(scope, w, raw);
    const cal = await scope.calibration(w);
    if (cal) s.stats = withCalibration(s.stats, cal);
    // Lite figures come from the accumulator; the daily shape still comes from the facts.
    const shape = facts ?? (await scope.facts(w));
    const f = forecast({
      raw,
      window: w,
      zone: ctx.cycle.zone,
      direction: ctx.direction,
      facts: shape,
    });
    s.forecast = cal ? forecastWithCalibration(f, cal) : f;
    return s;
  }

  /** Days of the current or previous cycle in the cycle zone (Billing mode only). */
  async daily(q: TrafficQuery & { period: Period }): Promise<{ items: DailyItem[] }> {
    const scope = await this.open(q);
    const { ctx, now } = scope;
    if (!ctx.billing) throw new AppError('traffic_daily_requires_billing');
    const w = q.period === 'current' ? cycleAt(ctx.cycle, now) : previousCycle(ctx.cycle, now);
    const { raw: whole, facts = [] } = await scope.live(w);
    if (facts.length === 0) return { items: [] };
    const items: DailyItem[] = [];
    for (const day of localDays(whole.effectiveStart, whole.effectiveEnd, ctx.cycle.zone)) {
      const raw = billingStats(facts, {
        start: day.start,
        end: day.end,
        now,
        firstSampleAt: ctx.firstSampleAt,
        p95Enabled: ctx.node.trafficP95Enabled,
      });
      const stats = presentStats(raw, {
        direction: ctx.direction,
        p95Enabled: ctx.node.trafficP95Enabled,
        // A day is complete once it has ended, not where its window stops at `now`.
        periodEnd: day.dayEnd,
        now,
      });
      items.push({
        server_id: ctx.node.id,
        iface: q.iface,
        usage_mode: 'billing',
        direction_mode: ctx.direction,
        start: rfc3339(day.start),
        end: rfc3339(day.end),
        stats: await scope.calibrated(stats, w, true),
      });
    }
    return { items };
  }

  /** Up to `months` cycles ending with the current (or previous) one, newest first; cycles
   * without data are left out. Closed Billing cycles come from snapshots when stored. */
  async monthly(
    q: TrafficQuery & { period: Period; months: number },
  ): Promise<{ includes_current: boolean; items: TrafficSummary[] }> {
    const scope = await this.open(q);
    let cycles = recentCycles(
      scope.ctx.cycle,
      scope.now,
      q.months + (q.period === 'previous' ? 1 : 0),
    );
    if (q.period === 'previous') cycles = cycles.slice(1);
    const items: TrafficSummary[] = [];
    for (const w of cycles) {
      const { raw, hasData, stale } = await scope.cycle(w);
      if (!hasData) continue;
      const s = this.summaryOf(scope, w, raw, stale);
      s.stats = await scope.calibrated(s.stats, w);
      items.push(s);
    }
    return { includes_current: q.period === 'current', items };
  }
}
