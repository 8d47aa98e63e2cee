import type {
  NodeRow,
  TrafficAdjustmentRow,
  TrafficAdjustmentsRepo,
  TrafficRepo,
  TrafficSnapshotRow,
} from '../../store/ports.js';
import {
  rawIn,
  ratioOf,
  recordFor,
  withCalibration,
  type AppliedCalibration,
} from './calibration.js';
import { cycleAt, type CycleWindow, type NodeCycle } from './cycle-bounds.js';
import type { BucketFact } from './facts.js';
import type { TrafficCollector } from './collector.js';
import { withPendingFacts, withPendingUsage } from './pair-batch.js';
import { billingStats, liteStats, type DirectionMode, type RawStats } from './stats.js';
import type { TrafficStats } from '../../protocol/traffic.js';

/** What a traffic read knows about its node before it looks at any figure. */
export interface ReadContext {
  node: NodeRow;
  billing: boolean;
  direction: DirectionMode;
  cycle: NodeCycle;
  firstSampleAt: number | undefined;
}

export interface PeriodRaw {
  raw: RawStats;
  hasData: boolean;
  /** From a stored snapshot whose raw source no longer covers the cycle. */
  stale: boolean;
  /** The facts read for it (Billing mode, computed live). */
  facts?: BucketFact[];
}

type Window = { start: number; end: number };

/** The collector's samples not stored yet, which reads add to the stored figures. */
export type PendingTraffic = Pick<TrafficCollector, 'withPending' | 'queuedIfaces'>;

/**
 * One read of one node and interface: loads snapshots, the counter range and the calibration
 * records once, and keeps the raw figures of each cycle it computed (a ratio needs the billed
 * cycle's raw figures, which the same read often shows as well).
 */
export class ReadScope {
  private snapshots: Map<number, TrafficSnapshotRow> | undefined;
  private range: { first: number; last: number } | undefined | null = null;
  private records: TrafficAdjustmentRow[] | undefined;
  private readonly raws = new Map<string, Promise<PeriodRaw>>();

  constructor(
    private readonly d: {
      traffic: TrafficRepo;
      adjustments: TrafficAdjustmentsRepo;
      /** Counters and facts older than this are pruned. */
      retentionMs: number;
      pending?: PendingTraffic;
    },
    readonly ctx: ReadContext,
    readonly iface: string,
    readonly now: number,
  ) {}

  /** Facts of [w.start, w.end), with those of the samples the collector has not stored yet. */
  async facts(w: Window): Promise<BucketFact[]> {
    const read = () => this.d.traffic.facts(this.ctx.node.id, this.iface, w.start, w.end);
    if (!this.d.pending) return read();
    const p = await this.d.pending.withPending(this.ctx.node.id, this.iface, read);
    return withPendingFacts(p.value, p.prev, p.samples, w.start, w.end);
  }

  /** The Lite accumulator of the cycle starting at `w.start`, with samples not stored yet. */
  private async usage(w: Window) {
    const read = () => this.d.traffic.usage(this.ctx.node.id, this.iface, w.start);
    if (!this.d.pending) return read();
    const p = await this.d.pending.withPending(this.ctx.node.id, this.iface, read);
    const seen: CycleWindow[] = [];
    const windowOf = (at: number) => {
      const hit = seen.find((c) => c.start <= at && at < c.end);
      if (hit) return hit;
      const c = cycleAt(this.ctx.cycle, at);
      seen.push(c);
      return c;
    };
    return withPendingUsage(p.value, p.prev, p.samples, windowOf, w.start);
  }

  /** Figures of `w` computed from facts (Billing) or the cycle's accumulator (Lite). */
  async live(w: Window): Promise<PeriodRaw> {
    const { node } = this.ctx;
    if (this.ctx.billing) {
      const facts = await this.facts(w);
      const raw = billingStats(facts, {
        start: w.start,
        end: w.end,
        now: this.now,
        firstSampleAt: this.ctx.firstSampleAt,
        p95Enabled: node.trafficP95Enabled,
      });
      return { raw, hasData: facts.length > 0, stale: false, facts };
    }
    const usage = await this.usage(w);
    return {
      raw: liteStats(usage, { ...w, now: this.now }),
      hasData: usage !== undefined,
      stale: false,
    };
  }

  /** Figures of a cycle: a stored snapshot for a closed Billing cycle when there is one. */
  cycle(w: Window): Promise<PeriodRaw> {
    const key = `${w.start}:${w.end}`;
    let hit = this.raws.get(key);
    if (!hit) {
      hit = this.load(w);
      this.raws.set(key, hit);
    }
    return hit;
  }

  private async load(w: Window): Promise<PeriodRaw> {
    if (this.ctx.billing && w.end <= this.now) {
      this.snapshots ??= new Map(
        (await this.d.traffic.snapshots(this.ctx.node.id, this.iface)).map((s) => [
          s.cycleStart,
          s,
        ]),
      );
      const snap = this.snapshots.get(w.start);
      if (snap && snap.cycleEnd === w.end) {
        if (this.range === null) this.range = await this.d.traffic.counterRange(this.ctx.node.id);
        return {
          raw: JSON.parse(snap.statsJson) as RawStats,
          hasData: true,
          stale: this.range === undefined || this.range.first > w.start,
        };
      }
      // No snapshot (the cycle closed in Lite mode, or before the hourly job saw it) and its
      // facts partly or wholly expired: the cycle's accumulator still has all of it.
      if (w.start < this.now - this.d.retentionMs) {
        const usage = await this.d.traffic.usage(this.ctx.node.id, this.iface, w.start);
        if (usage && usage.cycleEnd === w.end) {
          const raw = liteStats(usage, { ...w, now: this.now });
          return {
            raw: { ...raw, p95Status: 'snapshot_without_p95' },
            hasData: true,
            stale: true,
          };
        }
      }
    }
    return this.live(w);
  }

  /** The calibration of a cycle (or of a day of it, `day`), if a recorded bill applies. */
  async calibration(w: Window, day = false): Promise<AppliedCalibration | undefined> {
    this.records ??= await this.d.adjustments.active(this.ctx.node.id, this.iface);
    const hit = recordFor(this.records, w);
    if (!hit) return undefined;
    const source = await this.cycle({ start: hit.row.cycleStart, end: hit.row.cycleEnd });
    const rawNow = source.hasData ? rawIn(hit.row.direction, source.raw) : undefined;
    return {
      row: hit.row,
      basis: !hit.own ? 'estimate' : day ? 'bill_share' : 'bill',
      ratio: ratioOf(hit.row, rawNow),
    };
  }

  /** `stats` with adjusted figures when a bill applies to the cycle `w`. */
  async calibrated(stats: TrafficStats, w: Window, day = false): Promise<TrafficStats> {
    const c = await this.calibration(w, day);
    return c ? withCalibration(stats, c) : stats;
  }
}
