import { AppError } from '../../errors/app-error.js';
import type { Clock } from '../../platform/clock.js';
import type { UptimeMinuteRow, UptimeRepo, UptimeSums } from '../../store/ports.js';
import type { SystemSettingsService } from '../settings/system-settings.js';
import {
  isIsoDate,
  lastLocalDates,
  localDate,
  localHour,
  localHourStart,
  nextDate,
  startOfLocalDay,
  zonedTimestamp,
} from './calendar.js';
import { MINUTE_MS, minuteOnline } from './minute-online.js';
import { ReceiptLog } from './receipt-log.js';

export const UPTIME_DAYS = 45;
/** A minute is finalised this long after it ends, leaving time for reports in flight. */
export const FINALISE_DELAY_MS = 6_000;
/** Longest stretch the finaliser catches up on after a stall. */
const MAX_CATCH_UP_MINUTES = 60;

export interface Viewer {
  admin: boolean;
}

export interface UptimeDay {
  date: string;
  percent: number | null;
  observedMs: number;
}

export interface UptimeOverview {
  enabled: boolean;
  timezone: string;
  generatedAt: string;
  warningSla: number;
  errorSla: number;
  nodes: Array<{ serverId: string; days: UptimeDay[] }>;
}

export interface UptimeDayDetail {
  date: string;
  hours: Array<number | null>;
  observedMs: number[];
}

const percentOf = (s: UptimeSums | undefined): number | null =>
  s && s.observedMs > 0 ? (100 * s.onlineMs) / s.observedMs : null;

/**
 * Per-day uptime (spec "Uptime rules"). Report receipts arrive from ingest; a clock-driven job
 * finalises each completed minute into online and observed milliseconds; hour and day sums in
 * the configured zone are kept as minutes are written.
 */
export class UptimeService {
  private receipts = new ReceiptLog();
  /** Several instances: receipts, first reports and progress come from the store (see below). */
  private fromStore = false;
  private firstSeen = new Map<number, number>();
  private lastFinalised: number | undefined;
  /** Minutes that began before this process started cannot be observed: they stay unknown. */
  private readonly observableFrom: number;

  constructor(
    private readonly repo: UptimeRepo,
    private readonly settings: SystemSettingsService,
    private readonly clock: Clock,
    private readonly zone: string,
    private readonly thresholdMs: number,
  ) {
    this.observableFrom = Math.ceil(clock.now() / MINUTE_MS) * MINUTE_MS;
  }

  /** Loads observation starts and the receipts that still reach into unfinalised minutes. */
  async load(): Promise<void> {
    this.firstSeen = await this.repo.firstReports();
    this.lastFinalised = await this.repo.lastMinute();
    const since = this.clock.now() - this.thresholdMs - 2 * MINUTE_MS;
    for (const r of await this.repo.recentReceipts(since))
      this.receipts.add(r.nodeId, r.receivedAt);
  }

  /**
   * Several instances share the store, each accepting part of the reports, and whichever holds
   * the job's lock finalises: before each run, progress, first reports and receipts are read
   * from the stored rows (every instance's reports), not from what this instance received.
   */
  readReceiptsFromStore(): void {
    this.fromStore = true;
  }

  /** Called for every persisted report, current or not. */
  recordReceipt(nodeId: number, receivedAt: number): void {
    // Read from the store at each run instead; kept here they would grow on instances whose
    // runs the lock skips (nothing prunes them there).
    if (this.fromStore) return;
    this.receipts.add(nodeId, receivedAt);
    if (!this.firstSeen.has(nodeId)) this.firstSeen.set(nodeId, receivedAt);
  }

  forgetNode(nodeId: number): void {
    this.receipts.forget(nodeId);
  }

  /** Finalises every completed minute not yet written; returns how many minutes it wrote. */
  async finalise(now = this.clock.now()): Promise<number> {
    const target = Math.floor((now - FINALISE_DELAY_MS) / MINUTE_MS) * MINUTE_MS - MINUTE_MS;
    if (this.fromStore) this.lastFinalised = await this.repo.lastMinute();
    let minute = Math.max(
      this.lastFinalised === undefined ? -Infinity : this.lastFinalised + MINUTE_MS,
      this.observableFrom,
      target - (MAX_CATCH_UP_MINUTES - 1) * MINUTE_MS,
    );
    if (minute > target) return 0;
    if (this.fromStore) await this.readStored(minute);
    const nodes = await this.repo.nodes();
    let written = 0;
    for (; minute <= target; minute += MINUTE_MS) {
      const hourStart = localHourStart(minute, this.zone);
      const day = localDate(minute, this.zone);
      const rows: UptimeMinuteRow[] = [];
      for (const { id } of nodes) {
        const first = this.firstSeen.get(id);
        if (first === undefined || first >= minute + MINUTE_MS) continue;
        const r = minuteOnline(this.receipts.receipts(id), minute, first, this.thresholdMs);
        rows.push({ nodeId: id, minute, hourStart, day, ...r });
      }
      await this.repo.saveMinutes(rows);
      this.lastFinalised = minute;
      written++;
    }
    this.receipts.prune((this.lastFinalised ?? 0) + MINUTE_MS - this.thresholdMs);
    return written;
  }

  private async readStored(fromMinute: number): Promise<void> {
    this.firstSeen = await this.repo.firstReports();
    const log = new ReceiptLog();
    // A receipt up to one threshold before the minute still decides part of it.
    for (const r of await this.repo.recentReceipts(fromMinute - this.thresholdMs - MINUTE_MS))
      log.add(r.nodeId, r.receivedAt);
    this.receipts = log;
  }

  async overview(viewer: Viewer): Promise<UptimeOverview> {
    const now = this.clock.now();
    const s = await this.settings.get();
    const enabled = viewer.admin || s.uptime_guest_visible;
    const base = {
      enabled,
      timezone: this.zone,
      generatedAt: zonedTimestamp(now, this.zone),
      warningSla: s.uptime_warning_sla,
      errorSla: s.uptime_error_sla,
    };
    if (!enabled) return { ...base, nodes: [] };
    const dates = lastLocalDates(now, this.zone, UPTIME_DAYS);
    const nodes = (await this.repo.nodes()).filter((n) => viewer.admin || n.guestVisible);
    const sums = await this.repo.days(
      nodes.map((n) => n.id),
      dates[0] as string,
      dates[UPTIME_DAYS - 1] as string,
    );
    return {
      ...base,
      nodes: nodes.map((n) => ({
        serverId: String(n.id),
        days: dates.map((date) => {
          const d = sums.get(n.id)?.get(date);
          return { date, percent: percentOf(d), observedMs: d?.observedMs ?? 0 };
        }),
      })),
    };
  }

  async day(
    viewer: Viewer,
    serverId: string | undefined,
    date: string | undefined,
  ): Promise<UptimeDayDetail> {
    const id = Number(serverId);
    if (!serverId || !/^\d+$/.test(serverId) || !Number.isSafeInteger(id) || id <= 0) {
      throw new AppError('invalid_request', 'server_id must be a positive integer');
    }
    if (!date || !isIsoDate(date)) throw new AppError('invalid_request', 'date must be YYYY-MM-DD');
    const dates = lastLocalDates(this.clock.now(), this.zone, UPTIME_DAYS);
    if (date < (dates[0] as string) || date > (dates[UPTIME_DAYS - 1] as string)) {
      throw new AppError('invalid_request', `date must be within the last ${UPTIME_DAYS} days`);
    }
    if (!viewer.admin && !(await this.settings.get()).uptime_guest_visible) {
      throw new AppError('forbidden', 'uptime is not visible to guests');
    }
    const node = await this.repo.node(id);
    if (!node || (!viewer.admin && !node.guestVisible)) throw new AppError('not_found');
    const from = startOfLocalDay(date, this.zone);
    const to = startOfLocalDay(nextDate(date), this.zone);
    const online = new Array<number>(24).fill(0);
    const observed = new Array<number>(24).fill(0);
    for (const h of await this.repo.hours(id, from, to)) {
      const label = localHour(h.hourStart, this.zone);
      online[label] = (online[label] ?? 0) + h.onlineMs;
      observed[label] = (observed[label] ?? 0) + h.observedMs;
    }
    return {
      date,
      hours: observed.map((o, i) => (o > 0 ? (100 * (online[i] ?? 0)) / o : null)),
      observedMs: observed,
    };
  }
}
