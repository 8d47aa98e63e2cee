import semver from 'semver';
import { AppError } from '../errors/app-error.js';
import type { Clock } from '../platform/clock.js';
import type { Logger } from '../platform/logger.js';
import { ApplyError, applyRelease, recoverInstall, type RecoveryOutcome } from './apply.js';
import { FeedError, type FeedRelease, type ReleaseFeed } from './feed.js';
import { JobStore, newJobId, rfc3339Seconds, type JobRecord, type Phase } from './job-store.js';
import { currentRelease, installLayout, installRevision, runningFromCurrent } from './layout.js';
import type { ReleaseChannel } from './manifest.js';
import { renderNotes } from './notes.js';

export interface UpdaterState extends Partial<Omit<JobRecord, 'status'>> {
  status: 'idle' | JobRecord['status'];
  log_tail?: string;
  available: boolean;
  unavailable_reason?: string;
  current_version: string;
  /** Newest version the background check saw (notify and auto modes). */
  update_available_version?: string;
  last_checked_at?: string;
}

export interface CheckResult {
  current_version: string;
  current_channel: ReleaseChannel;
  target_channel: ReleaseChannel;
  latest_version: string;
  install_revision: string;
  version_status: 'available' | 'current' | 'ahead' | 'unknown';
  bundled_node_version: string;
}

export interface RunRequest {
  action: 'update' | 'reinstall';
  channel: ReleaseChannel;
  lang: string;
  target_version?: string;
  expected_current_version?: string;
  expected_install_revision?: string;
  origin?: 'admin' | 'auto';
}

export interface UpdaterOptions {
  home: string;
  /** Undefined with a reason when no feed or no pinned key is configured. */
  feed: ReleaseFeed | undefined;
  feedProblem?: string;
  /** Package root of the running code; compared with `current` to detect an installed layout. */
  runningRoot: string;
  runningVersion: string;
  nodeVersion: string;
  clock: Clock;
  log: Logger;
  /** After a successful switch: restart into the new release (a supervisor starts bin/dash). */
  restart: () => void;
  /** Test seam: runs as each phase begins, after the phase is persisted. */
  onPhase?: (phase: Phase) => Promise<void> | void;
}

const channelOf = (v: string): ReleaseChannel => (semver.prerelease(v) ? 'prerelease' : 'release');

/** Dash's self-update: availability, check, jobs persisted under runtime/dash-update, recovery. */
export class DashUpdater {
  readonly layout;
  readonly jobs: JobStore;
  private running: Promise<void> | undefined;
  private seen: { version: string; at: number } | undefined;

  constructor(private readonly o: UpdaterOptions) {
    this.layout = installLayout(o.home);
    this.jobs = new JobStore(this.layout.runtimeDir);
    this.reconcileAtStart();
  }

  /** A job still `running` on disk belonged to a process that is gone. */
  private reconcileAtStart(): void {
    const last = this.jobs.lastJob();
    const tx = this.jobs.transaction();
    if (last?.status === 'running') {
      const code = tx ? 'recovery_required' : 'update_interrupted';
      this.jobs.log(last.id, `dash restarted while the job was in phase ${last.phase}: ${code}`);
      this.jobs.save({
        ...last,
        status: 'failed',
        failure_code: code,
        exit_code: 1,
        finished_at: rfc3339Seconds(this.o.clock.now()),
        ...(tx ? { recovery_path: tx.next } : {}),
      });
    }
    if (!tx) this.jobs.unlock();
  }

  /** When the feed was last read successfully (notify/auto pacing). */
  lastCheckedAt(): number | undefined {
    return this.seen?.at;
  }

  availability(): { available: boolean; reason?: string } {
    if (this.jobs.transaction()) {
      return {
        available: false,
        reason: `an interrupted update needs recovery: run ${this.o.home}/bin/dash update recover`,
      };
    }
    if (!this.o.feed) return { available: false, reason: this.o.feedProblem ?? 'no release feed' };
    const cur = currentRelease(this.layout);
    if (!cur || !runningFromCurrent(this.layout, this.o.runningRoot)) {
      return {
        available: false,
        reason: `Dash runs from ${this.o.runningRoot}, not from an installed layout (${this.layout.currentLink}); a checkout cannot self-update`,
      };
    }
    if (cur.stamp.version !== this.o.runningVersion) {
      return {
        available: false,
        reason: `installed release ${cur.stamp.version} differs from the running ${this.o.runningVersion}; restart Dash`,
      };
    }
    return { available: true };
  }

  status(): UpdaterState {
    const last = this.jobs.lastJob();
    const a = this.availability();
    const tail = last ? this.jobs.logTail(last.id) : undefined;
    return {
      ...(last ?? { status: 'idle' as const }),
      ...(tail ? { log_tail: tail } : {}),
      available: a.available,
      ...(a.reason ? { unavailable_reason: a.reason } : {}),
      current_version: this.o.runningVersion,
      ...(this.seen && semver.gt(this.seen.version, this.o.runningVersion)
        ? { update_available_version: this.seen.version }
        : {}),
      ...(this.seen ? { last_checked_at: rfc3339Seconds(this.seen.at) } : {}),
    };
  }

  private feedOrThrow(): ReleaseFeed {
    const a = this.availability();
    if (!a.available || !this.o.feed) throw new AppError('dash_update_unavailable', a.reason);
    return this.o.feed;
  }

  private async releases(feed: ReleaseFeed, channel: ReleaseChannel): Promise<FeedRelease[]> {
    const listing = await feed.list();
    for (const r of listing.rejected) this.o.log.warn({ entry: r }, 'release feed entry refused');
    return listing.releases
      .filter((r) => channel === 'prerelease' || r.manifest.channel === 'release')
      .filter((r) => channel === 'prerelease' || !semver.prerelease(r.manifest.version))
      .sort((a, b) => semver.rcompare(a.manifest.version, b.manifest.version));
  }

  async check(channel: ReleaseChannel): Promise<CheckResult> {
    const feed = this.feedOrThrow();
    let list: FeedRelease[];
    try {
      list = await this.releases(feed, channel);
    } catch (err) {
      if (err instanceof FeedError) throw new AppError('dash_update_check_failed', err.message);
      throw err;
    }
    const current = this.o.runningVersion;
    const latest = list[0]?.manifest.version ?? '';
    this.seen = latest ? { version: latest, at: this.o.clock.now() } : this.seen;
    const cmp = latest && semver.valid(current) ? semver.compare(latest, current) : undefined;
    return {
      current_version: current,
      current_channel: channelOf(current),
      target_channel: channel,
      latest_version: latest,
      install_revision: installRevision(this.layout) ?? '',
      version_status:
        cmp === undefined ? 'unknown' : cmp > 0 ? 'available' : cmp === 0 ? 'current' : 'ahead',
      bundled_node_version: this.o.nodeVersion,
    };
  }

  /** Starts a job; answers 202 with the job or 409 with the running job's state. */
  async run(req: RunRequest): Promise<{ code: 202 | 409; state: UpdaterState }> {
    if (this.running) return { code: 409, state: this.status() };
    this.feedOrThrow();
    const plan = [req.target_version, req.expected_current_version, req.expected_install_revision];
    const given = plan.filter((p) => p !== undefined && p !== '').length;
    if (given !== 0 && given !== 3) {
      throw new AppError(
        'invalid_fields',
        'send target_version, expected_current_version and expected_install_revision together, or none',
      );
    }
    let target: string;
    let expectedVersion: string;
    let expectedRevision: string;
    if (given === 3) {
      target = req.target_version as string;
      expectedVersion = req.expected_current_version as string;
      expectedRevision = req.expected_install_revision as string;
      if (!semver.valid(target))
        throw new AppError('invalid_fields', 'target_version is not SemVer');
      if (semver.valid(expectedVersion) && semver.lt(target, expectedVersion)) {
        throw new AppError('invalid_fields', 'target_version is older than the current version');
      }
    } else {
      const fresh = await this.check(req.channel);
      if (!fresh.latest_version)
        throw new AppError('dash_update_check_failed', 'no release in the feed');
      target = fresh.latest_version;
      expectedVersion = fresh.current_version;
      expectedRevision = fresh.install_revision;
    }
    if (req.action === 'update' && target === expectedVersion)
      throw new AppError('dash_update_current');
    const now = this.o.clock.now();
    const job: JobRecord = {
      id: newJobId(now),
      status: 'running',
      action: req.action,
      channel: req.channel,
      origin: req.origin ?? 'admin',
      target_version: target,
      from_version: this.o.runningVersion,
      phase: 'queued',
      started_at: rfc3339Seconds(now),
    };
    this.jobs.save(job);
    this.jobs.log(
      job.id,
      `${job.origin} ${job.action} to ${target} on ${job.channel} (lang ${req.lang})`,
    );
    this.running = this.execute(job, expectedVersion, expectedRevision).finally(() => {
      this.running = undefined;
    });
    return { code: 202, state: this.status() };
  }

  /** Resolves when the job in flight (if any) has finished; for shutdown and tests. */
  async idle(): Promise<void> {
    await this.running;
  }

  private async execute(
    job: JobRecord,
    expectedVersion: string,
    expectedRevision: string,
  ): Promise<void> {
    const log = (line: string) => this.jobs.log(job.id, line);
    const phase = async (p: Phase) => {
      job.phase = p;
      this.jobs.save(job);
      log(`phase ${p}`);
      await this.o.onPhase?.(p);
    };
    let locked = false;
    try {
      if (!this.jobs.tryLock(job.id)) {
        return this.finish(job, 'update_running', 'another update holds the update lock');
      }
      locked = true;
      await phase('locked');
      const installed = currentRelease(this.layout);
      if (
        !installed ||
        installed.stamp.version !== expectedVersion ||
        installRevision(this.layout) !== expectedRevision
      ) {
        return this.finish(
          job,
          'install_changed',
          'the install changed since the check; check again',
        );
      }
      const feed = this.feedOrThrow();
      const all = await feed.list();
      const release = all.releases.find((r) => r.manifest.version === job.target_version);
      if (!release) {
        return this.finish(
          job,
          'update_failed',
          `no signed release ${job.target_version} in the feed${all.rejected.length ? ` (refused: ${all.rejected.join('; ')})` : ''}`,
        );
      }
      await applyRelease({
        layout: this.layout,
        jobs: this.jobs,
        feed,
        jobId: job.id,
        manifest: release.manifest,
        stampTime: rfc3339Seconds(this.o.clock.now()),
        onPhase: phase,
        log,
      });
      await phase('done');
      job.status = 'completed';
      job.exit_code = 0;
      job.finished_at = rfc3339Seconds(this.o.clock.now());
      this.jobs.save(job);
      log(`updated to ${job.target_version}; restarting into it`);
      this.o.restart();
    } catch (err) {
      const code = err instanceof ApplyError ? err.failureCode : 'update_failed';
      this.finish(job, code, (err as Error).message);
    } finally {
      if (locked) this.jobs.unlock();
    }
  }

  private finish(job: JobRecord, code: JobRecord['failure_code'] & string, why: string): void {
    this.jobs.log(job.id, `failed (${code}): ${why}`);
    this.o.log.warn({ job: job.id, failure_code: code }, `dash update failed: ${why}`);
    job.status = 'failed';
    job.failure_code = code;
    job.exit_code = 1;
    job.finished_at = rfc3339Seconds(this.o.clock.now());
    this.jobs.save(job);
  }

  async releaseNotes(channel: ReleaseChannel): Promise<{ source_url: string; html: string }> {
    if (!this.o.feed) throw new AppError('dash_update_unavailable', this.o.feedProblem);
    let list: FeedRelease[];
    try {
      list = await this.releases(this.o.feed, channel);
    } catch (err) {
      if (err instanceof FeedError) throw new AppError('release_notes_fetch_failed', err.message);
      throw err;
    }
    const newest = list[0];
    if (!newest) return { source_url: this.o.feed.location, html: '' };
    return {
      source_url: newest.source,
      html: renderNotes(newest.manifest.version, newest.manifest.notes),
    };
  }

  /** `dash update recover`: finishes or undoes an interrupted switch and closes its job. */
  async recover(): Promise<RecoveryOutcome> {
    const tx = this.jobs.transaction();
    const outcome = await recoverInstall(this.layout, this.jobs);
    const job = tx ? this.jobs.lastJob() : undefined;
    if (job && job.id === tx?.job_id) {
      const done = outcome.kind === 'forward';
      this.jobs.log(job.id, `recovered: ${outcome.kind}`);
      this.jobs.save({
        ...job,
        status: done ? 'completed' : 'failed',
        phase: done ? 'done' : job.phase,
        exit_code: done ? 0 : 1,
        finished_at: rfc3339Seconds(this.o.clock.now()),
        ...(done ? { failure_code: undefined } : { failure_code: 'rolled_back' }),
      });
    }
    this.jobs.unlock();
    return outcome;
  }
}
