import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { Clock } from './platform/clock.js';
import type { Logger } from './platform/logger.js';
import type { Database } from './store/schema.js';
import type { JobLocks } from './store/ports.js';
import type { AuthService } from './domain/auth/auth-service.js';
import { SharedRateLimiter } from './domain/auth/shared-rate-limiter.js';
import { ClusterSync } from './domain/cluster/cluster-sync.js';
import type { FrontState } from './domain/front/front-state.js';
import type { NodeEvents } from './domain/nodes/node-events.js';
import type { NodeSecretIndex } from './domain/nodes/secret-index.js';
import type { ReportEvents } from './domain/ingest/report-events.js';
import type { SystemSettingsService } from './domain/settings/system-settings.js';
import type { UptimeService } from './domain/uptime/uptime-service.js';
import type { AlertsService } from './domain/alerts/service.js';
import type { AcceptedReport } from './domain/ingest/report-events.js';
import { PgBus } from './store/postgres/notify.js';
import { postgresJobLocks } from './store/postgres/job-locks.js';
import { LeaderLock } from './store/postgres/leader-lock.js';
import { rateCountersRepo } from './store/queries/rate-counters.js';
import { exclusiveJob } from './jobs/exclusive-job.js';
import type { Job } from './jobs/scheduler.js';

/** The notification channel of an install (channels are database-wide). */
export const DEFAULT_CLUSTER_CHANNEL = 'dash_cluster';

export interface ClusterInputs {
  url: string;
  pool: pg.Pool;
  db: Kysely<Database>;
  clock: Clock;
  log: Logger;
  loginFailuresPerMinute: number;
  nodeAuthFailuresPerMinute: number;
  channel?: string;
  front: FrontState;
  nodeEvents: NodeEvents;
  nodeSecrets: NodeSecretIndex;
  liveSecretHashes: () => Promise<Array<{ id: number; secretHash: string }>>;
  auth: AuthService;
  systemSettings: SystemSettingsService;
  uptime: UptimeService;
  reportEvents: ReportEvents;
  /** How often a follower tries to take over alert evaluation. */
  leaderRetryMs?: number;
  /** The leader lock's name (advisory locks are database-wide: installs sharing one need their own). */
  leaderName?: string;
  /** Prefix of the job locks' names, for the same reason. */
  jobScope?: string;
}

/** What the cluster asks of traffic collection when leadership changes. */
interface LedTraffic {
  resetCursors(): Promise<void>;
  discardQueued(): Promise<void>;
}

/**
 * Composition for several Dash instances on one PostgreSQL (docs/postgresql.md "Between
 * instances"): the bus and ClusterSync wired to this instance's hot state, shared rate
 * limiters, jobs under advisory locks and the alert-evaluation leader. deps.ts builds it
 * before AlertsService (whose `evaluates` and `onChanged` it supplies) and attaches the
 * alerts once they exist.
 */
export class Cluster {
  readonly loginLimiter: SharedRateLimiter;
  readonly nodeAuthLimiter: SharedRateLimiter;
  readonly sync: ClusterSync;
  readonly leader: LeaderLock;
  private readonly bus: PgBus;
  private readonly locks: JobLocks;
  private alerts: AlertsService | undefined;
  private traffic: LedTraffic | undefined;
  /** Reports of other instances handed to this one's listeners: not published again. */
  private readonly remote = new WeakSet<AcceptedReport>();

  constructor(private readonly i: ClusterInputs) {
    const onError = (err: unknown) => i.log.error({ err }, 'instance sync failed');
    this.bus = new PgBus(i.url, i.pool, { onGap: () => void this.sync.resync().catch(onError) });
    this.locks = postgresJobLocks(i.pool, i.jobScope);
    const limiter = (scope: string, limit: number) =>
      new SharedRateLimiter({
        repo: rateCountersRepo(i.db),
        scope,
        clock: i.clock,
        limit,
        windowMs: 60_000,
        onError,
        onLimited: (key, start) => this.sync.keyLimited(scope, key, start),
      });
    this.loginLimiter = limiter('login', i.loginFailuresPerMinute);
    this.nodeAuthLimiter = limiter('node-auth', i.nodeAuthFailuresPerMinute);
    this.sync = new ClusterSync({
      bus: this.bus,
      channel: i.channel ?? DEFAULT_CLUSTER_CHANNEL,
      instanceId: randomBytes(6).toString('hex'),
      onError,
      followers: {
        front: {
          refreshCurrent: (ids) => this.followReports(ids),
          load: () => i.front.load(),
        },
        nodeEvents: i.nodeEvents,
        reloadSecrets: async () => i.nodeSecrets.load(await i.liveSecretHashes()),
        auth: i.auth,
        limiters: { login: this.loginLimiter, 'node-auth': this.nodeAuthLimiter },
        settings: {
          system: () => i.systemSettings.forget(),
          alerts: () => (this.leading() ? this.alerts?.followStored() : undefined),
        },
      },
    });
    this.leader = new LeaderLock(i.url, {
      name: i.leaderName ?? 'alerts',
      ...(i.leaderRetryMs === undefined ? {} : { retryMs: i.leaderRetryMs }),
      onChange: async (leading) => {
        i.log.info({ leading }, 'alert evaluation leadership changed');
        // Samples queued while leading would be stored after the new leader's and counted
        // twice; counters are cumulative, so dropping them loses no byte.
        if (!leading) return this.traffic?.discardQueued();
        // What it only noted as a follower (followReports): the start reads receive times. A
        // failed read leaves some a few seconds old, which must not keep the alerts from starting.
        await i.front.catchUp()?.catch(onError);
        await this.traffic?.resetCursors();
        await this.alerts?.start(this.known());
      },
      onError,
    });
    i.auth.shareAcrossInstances((change) => this.sync.sessionChanged(change));
    i.systemSettings.onSaved(() => this.sync.settingsChanged('system'));
    i.uptime.readReceiptsFromStore();
    // Off the leader, followed reports are only noted; while dashboards poll, they are read
    // and rendered in the background so a poll finds little to catch up (docs/postgresql.md).
    i.front.readAheadOfReaders({ clock: i.clock });
    i.reportEvents.onAccepted((event) => {
      if (!this.remote.has(event)) this.sync.reportApplied(event.nodeId);
    });
  }

  /**
   * The gate of alert evaluation and traffic collection: only the leading instance runs them,
   * on its own reports and (re-emitted to its report listeners) everyone else's.
   */
  leading(): boolean {
    return this.leader.leading;
  }

  /** Called by AlertsService after an admin change, so the leader follows it. */
  alertsChanged(): void {
    this.sync.settingsChanged('alerts');
  }

  /** A static report changed a node's facts here. */
  staticStored(nodeId: number): void {
    this.sync.nodeRefreshed(nodeId);
  }

  /** What the leader restarts when it takes over (built after the cluster, see deps.ts). */
  attach(led: { alerts: AlertsService; traffic?: LedTraffic }): void {
    this.alerts = led.alerts;
    this.traffic = led.traffic;
  }

  /** The job, run by one instance per turn. */
  exclusive(job: Job): Job {
    return exclusiveJob(job, this.locks);
  }

  async start(): Promise<void> {
    await this.sync.start();
    await this.leader.start();
  }

  async stop(): Promise<void> {
    this.i.front.stopReadingAhead();
    this.sync.stop();
    await this.sync.flush().catch(() => {});
    await this.leader.stop();
    await this.loginLimiter.settled();
    await this.nodeAuthLimiter.settled();
    await this.bus.close();
  }

  private known(): Array<{ nodeId: number; receivedAt: number }> {
    return this.i.front.list().flatMap((item) => {
      const receivedAt = this.i.front.receivedAt(item.nodeId);
      return receivedAt === undefined ? [] : [{ nodeId: item.nodeId, receivedAt }];
    });
  }

  /**
   * Follows reports other instances accepted. The leader installs their views at once and hands
   * its report listeners (alerts, traffic) what the re-read projections hold: alert readings,
   * and interface counters (a zero, which the view shows for a counter the report lacked, is
   * left unknown), taken while each view is rendered rather than by parsing it again. Any other
   * instance only notes the nodes: their views are read and rendered when someone reads them
   * (`FrontState.follow`), so following costs it next to nothing while nobody does.
   */
  private async followReports(ids: readonly number[]): Promise<number[]> {
    const front = this.i.front;
    if (!this.leading()) {
      front.follow(ids);
      return [];
    }
    const events: AcceptedReport[] = [];
    const changed = await front.refreshCurrent(ids, (nodeId, receivedAt, digest) => {
      events.push({
        nodeId,
        receivedAt,
        counters: digest.counters,
        readings: digest.readings,
        view: () => front.view(nodeId),
      });
    });
    for (const event of events) {
      this.remote.add(event);
      this.i.reportEvents.emitAccepted(event, (err) =>
        this.i.log.error({ err, nodeId: event.nodeId }, 'accepted-report listener failed'),
      );
    }
    return changed;
  }
}
