import { hostname as osHostname } from 'node:os';
import type { AgentClock } from '../clock.js';
import type { StaticSnapshot } from '../collect/collector.js';
import type { AgentLog } from '../log.js';
import type { Metrics, NodeReport, StaticReport } from '../payload.js';
import type { ManifestOffer } from '../update/manifest.js';
import { extractManifest } from '../update/manifest.js';
import { Endpoint, parseTargetUrl, siblingUrl, type TargetConfig } from './target.js';

/** What the push loop needs from the collectors (the Collector class, or a fake in tests). */
export interface Sampler {
  prime(): void;
  sample(): Promise<Metrics>;
  staticInfo(): Promise<StaticSnapshot>;
}

export interface PusherOptions {
  targets: readonly TargetConfig[];
  intervalMs: number;
  requireHttps: boolean;
  clock: AgentClock;
  log: AgentLog;
  sampler: Sampler;
  version: string;
  /** Receives the manifests of each cycle; absent when updates are not handled at all. */
  onManifests?: (offers: ManifestOffer<TargetConfig>[]) => Promise<unknown>;
}

/** Reference cadences (§1.7). */
export const STATIC_RETRY_MS = 10_000;
export function staticCheckEveryMs(intervalMs: number): number {
  return Math.min(60_000, Math.max(10_000, 20 * intervalMs));
}

interface TargetState {
  endpoint: Endpoint;
  staticUrl: URL;
  /** Scheme, host and path: what logs may show (never the secret). */
  label: string;
  inFlight: boolean;
  /** Reports failing since the last success; further failures are logged at debug level only. */
  failing: boolean;
  /** The same for static reports, tracked apart so one never masks the other's recovery. */
  staticFailing: boolean;
  staticDue: boolean;
  staticRetryAt: number;
  sentFingerprint?: string;
}

interface StaticState {
  snapshot: StaticSnapshot;
  fingerprint: string;
  collectedAt: number;
}

/** Refuses plain-HTTP targets when HTTPS is required; every refusal is reported. */
export function usableTargets(
  targets: readonly TargetConfig[],
  requireHttps: boolean,
  log: AgentLog,
): { target: TargetConfig; url: URL }[] {
  const out: { target: TargetConfig; url: URL }[] = [];
  for (const target of targets) {
    let url: URL;
    try {
      url = parseTargetUrl(target.url);
    } catch (err) {
      log.error(`target skipped: ${(err as Error).message}`);
      continue;
    }
    if (requireHttps && url.protocol !== 'https:') {
      log.error(
        `target skipped: ${url.origin}${url.pathname} is not HTTPS and --require-https is set`,
      );
      continue;
    }
    out.push({ target, url });
  }
  return out;
}

/**
 * The client side of the node protocol (spec §4.4): one sample per cycle, sent to every target
 * independently. A slow or failing target never delays another: each has its own request in
 * flight, and a target still busy from the previous cycle simply skips this one.
 */
export class Pusher {
  private readonly targets: TargetState[];
  private staticState: StaticState | undefined;
  private nextStaticCheckAt = 0;
  /** Sampling failing since the last good sample; repeats are logged at debug level only. */
  private samplingFailing = false;

  constructor(private readonly opts: PusherOptions) {
    this.targets = usableTargets(opts.targets, opts.requireHttps, opts.log).map(
      ({ target, url }) => ({
        endpoint: new Endpoint(target, url, opts.requireHttps, (reason) =>
          opts.log.warn(
            `${url.origin}${url.pathname}: HTTPS failed (${reason}); using plain HTTP for 10 minutes (--require-https forbids this)`,
          ),
        ),
        staticUrl: siblingUrl(url, 'static'),
        label: `${url.origin}${url.pathname}`,
        inFlight: false,
        failing: false,
        staticFailing: false,
        staticDue: true,
        staticRetryAt: 0,
      }),
    );
  }

  get targetCount(): number {
    return this.targets.length;
  }

  private get intervalSeconds(): number {
    return Math.max(1, Math.round(this.opts.intervalMs / 1000));
  }

  private iso(ms: number): string {
    return new Date(ms).toISOString();
  }

  /** Takes the rate baseline and sends Static to every target right away. */
  async start(): Promise<void> {
    this.opts.sampler.prime();
    await this.refreshStatic();
    await Promise.all(this.targets.map((t) => this.exclusive(t, () => this.sendStatic(t))));
  }

  /**
   * Re-reads static information when it is due: on the change-check cadence, or every 10 s while
   * it is incomplete. A snapshot that differs from what a target last received is re-sent to it.
   */
  private async refreshStatic(): Promise<void> {
    const now = this.opts.clock.now();
    const current = this.staticState;
    const incompleteRetry =
      current !== undefined &&
      !current.snapshot.complete &&
      now - current.collectedAt >= STATIC_RETRY_MS;
    if (current && now < this.nextStaticCheckAt && !incompleteRetry) return;
    let snapshot: StaticSnapshot;
    try {
      snapshot = await this.opts.sampler.staticInfo();
    } catch (err) {
      this.opts.log.warn(`static collection failed: ${(err as Error).message}`);
      return;
    }
    const fingerprint = JSON.stringify(snapshot.body);
    this.staticState = { snapshot, fingerprint, collectedAt: now };
    this.nextStaticCheckAt = now + staticCheckEveryMs(this.opts.intervalMs);
    for (const t of this.targets) {
      if (t.sentFingerprint !== fingerprint) t.staticDue = true;
    }
  }

  private async exclusive<T>(t: TargetState, fn: () => Promise<T>): Promise<T | undefined> {
    if (t.inFlight) return undefined;
    t.inFlight = true;
    try {
      return await fn();
    } finally {
      t.inFlight = false;
    }
  }

  private failed(t: TargetState, what: 'report' | 'static report', why: string): void {
    const flag = what === 'report' ? 'failing' : 'staticFailing';
    if (t[flag]) {
      this.opts.log.debug(`${t.label}: ${what} failed again (${why})`);
      return;
    }
    t[flag] = true;
    this.opts.log.warn(
      `${t.label}: ${what} failed (${why}); further failures are not logged until it recovers`,
    );
  }

  private async sendStatic(t: TargetState): Promise<void> {
    const state = this.staticState;
    if (!state) return;
    const now = this.opts.clock.now();
    const body: StaticReport = {
      version: this.opts.version,
      timestamp: this.iso(now),
      report_interval_seconds: this.intervalSeconds,
      ...state.snapshot.body,
    };
    t.staticRetryAt = now + STATIC_RETRY_MS;
    try {
      const res = await t.endpoint.post(t.staticUrl, body, now);
      if (res.status !== 200) {
        this.failed(t, 'static report', `HTTP ${res.status}`);
        return;
      }
      if (t.staticFailing) {
        t.staticFailing = false;
        this.opts.log.info(`${t.label}: static report accepted again`);
      }
      t.sentFingerprint = state.fingerprint;
      // Incomplete static information stays due, so it goes out again after STATIC_RETRY_MS.
      t.staticDue = !state.snapshot.complete;
      this.opts.log.debug(`${t.label}: static sent`);
    } catch (err) {
      this.failed(t, 'static report', (err as Error).message);
    }
  }

  private async sendMetrics(
    t: TargetState,
    report: NodeReport | undefined,
  ): Promise<ManifestOffer<TargetConfig> | undefined> {
    const now = this.opts.clock.now();
    if (t.staticDue && now >= t.staticRetryAt) await this.sendStatic(t);
    if (!report) return undefined;
    try {
      const res = await t.endpoint.post(t.endpoint.url, report, now);
      if (res.status !== 200) {
        this.failed(t, 'report', `HTTP ${res.status}`);
        return undefined;
      }
      if (t.failing) {
        t.failing = false;
        this.opts.log.info(`${t.label}: reporting again`);
        // Dash may have lost or never stored the static report while this target was failing.
        t.staticDue = true;
        await this.sendStatic(t);
      }
      this.opts.log.debug(`${t.label}: report accepted`);
      const raw = extractManifest(res);
      return raw === undefined ? undefined : { raw, from: t.endpoint.target };
    } catch (err) {
      this.failed(t, 'report', (err as Error).message);
      return undefined;
    }
  }

  /** One cycle: sample once, send to every idle target, then hand the manifests on. */
  async round(): Promise<void> {
    await this.refreshStatic();
    let report: NodeReport | undefined;
    try {
      const metrics = await this.opts.sampler.sample();
      report = {
        version: this.opts.version,
        hostname: this.staticState?.snapshot.body.system.hostname ?? osHostname(),
        timestamp: this.iso(this.opts.clock.now()),
        metrics,
      };
      this.samplingFailing = false;
    } catch (err) {
      const msg = `sampling failed: ${(err as Error).message}`;
      if (this.samplingFailing) this.opts.log.debug(msg);
      else this.opts.log.error(`${msg}; no report is sent until it works again`);
      this.samplingFailing = true;
    }
    const offers = await Promise.all(
      this.targets.map((t) => this.exclusive(t, () => this.sendMetrics(t, report))),
    );
    const manifests = offers.filter((o): o is ManifestOffer<TargetConfig> => o !== undefined);
    if (manifests.length > 0 && this.opts.onManifests) await this.opts.onManifests(manifests);
  }
}

/** Runs the pusher on a fixed cadence until stopped. */
export class PushLoop {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly pusher: Pusher,
    private readonly intervalMs: number,
    private readonly clock: AgentClock,
    private readonly log: AgentLog,
    /** Delay of the first round after Static; the grid then continues from it. */
    private readonly firstRoundMs: number = intervalMs,
  ) {}

  private track(p: Promise<void>): void {
    const tracked = p.catch((err: unknown) => {
      this.log.error(`push cycle failed: ${(err as Error).message}`);
    });
    this.running.add(tracked);
    void tracked.finally(() => this.running.delete(tracked));
  }

  start(): void {
    this.track(this.pusher.start());
    this.schedule(this.clock.monotonic() + this.firstRoundMs);
  }

  /** Cycles stay on the grid start + k·interval; a late wake-up skips, never bunches, cycles. */
  private schedule(at: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(
      () => {
        if (this.stopped) return;
        this.track(this.pusher.round());
        const now = this.clock.monotonic();
        let next = at + this.intervalMs;
        if (next <= now) next = now + this.intervalMs - ((now - at) % this.intervalMs);
        this.schedule(next);
      },
      Math.max(0, at - this.clock.monotonic()),
    );
  }

  /** Stops scheduling and waits for the cycles in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.allSettled([...this.running]);
  }
}
