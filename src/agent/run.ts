import { systemAgentClock, type AgentClock } from './clock.js';
import { Collector } from './collect/collector.js';
import type { StatFs } from './collect/disk.js';
import { LIVE_HOST, type HostPaths } from './collect/host-paths.js';
import { silentLog, type AgentLog } from './log.js';
import { Pusher, PushLoop } from './push/pusher.js';
import type { TargetConfig } from './push/target.js';
import { Updater } from './update/updater.js';
import type { ManagedLayout } from './update/layout.js';
import { AGENT_VERSION } from './version.js';

export interface StartAgentOptions {
  /** Report URLs (…/api/node/metrics) with their node secrets. */
  targets: readonly TargetConfig[];
  /** Report interval; 3 s by default. */
  intervalMs?: number;
  /**
   * Delay of the first metrics report (at most the interval; the interval by default). The
   * local agent reports after 0.5 s so a new user's dashboard shows this host at once.
   */
  firstReportMs?: number;
  clock?: AgentClock;
  log?: AgentLog;
  paths?: HostPaths;
  statfs?: StatFs;
  /** Interfaces to report (--net); every non-virtual one by default. */
  interfaces?: readonly string[];
  requireHttps?: boolean;
  /** Self-update: only for an agent running from a managed layout. Manifests are ignored without it. */
  updates?: { layout: ManagedLayout; restart: (binary: string) => void };
}

export interface AgentHandle {
  /** Number of targets actually used (plain-HTTP ones are dropped under requireHttps). */
  readonly targets: number;
  /** Stops the loop and waits for the requests in flight. */
  stop(): Promise<void>;
}

export const DEFAULT_INTERVAL_MS = 3_000;

/**
 * Starts the push loop in this process: Static right away, then a report every interval. Dash's
 * `serve` can call this to monitor its own host without spawning the bundled agent.
 */
export function startAgent(options: StartAgentOptions): AgentHandle {
  const clock = options.clock ?? systemAgentClock;
  const log = options.log ?? silentLog;
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  const requireHttps = options.requireHttps ?? false;
  const sampler = new Collector({
    paths: options.paths ?? LIVE_HOST,
    clock,
    ...(options.statfs ? { statfs: options.statfs } : {}),
    ...(options.interfaces ? { interfaces: options.interfaces } : {}),
  });
  const updater = options.updates
    ? new Updater({
        layout: options.updates.layout,
        currentVersion: AGENT_VERSION,
        requireHttps,
        clock,
        log,
        restart: options.updates.restart,
      })
    : undefined;
  const pusher = new Pusher({
    targets: options.targets,
    intervalMs,
    requireHttps,
    clock,
    log,
    sampler,
    version: AGENT_VERSION,
    ...(updater ? { onManifests: (offers) => updater.consider(offers) } : {}),
  });
  const firstMs = Math.min(options.firstReportMs ?? intervalMs, intervalMs);
  const loop = new PushLoop(pusher, intervalMs, clock, log, firstMs);
  if (pusher.targetCount > 0) loop.start();
  return { targets: pusher.targetCount, stop: () => loop.stop() };
}
