import { existsSync, realpathSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fetchVerifiedBundle, type ReleaseFeed } from './feed.js';
import type { JobStore, Phase, Transaction } from './job-store.js';
import {
  currentRelease,
  currentTarget,
  extractBundle,
  pruneReleases,
  readStamp,
  releaseVersion,
  switchCurrent,
  writeStamp,
  type InstallLayout,
} from './layout.js';
import type { ReleaseManifest } from './manifest.js';

/** Why an apply stopped; the job records it as failure_code. */
export class ApplyError extends Error {
  override name = 'ApplyError';
  constructor(
    readonly failureCode: 'install_changed' | 'update_failed',
    message: string,
  ) {
    super(message);
  }
}

export interface ApplyContext {
  layout: InstallLayout;
  jobs: JobStore;
  feed: ReleaseFeed;
  jobId: string;
  manifest: ReleaseManifest;
  stampTime: string;
  /** Called as each phase begins (persists progress; tests use it to stop at a phase). */
  onPhase: (phase: Phase) => Promise<void> | void;
  log: (line: string) => void;
}

function releaseDirFor(layout: InstallLayout, version: string, jobId: string): string {
  const plain = join(layout.releasesDir, version);
  // A reinstall of the running version gets its own directory: `current` never moves under it.
  return existsSync(plain) ? join(layout.releasesDir, `${version}~${jobId.slice(-10)}`) : plain;
}

/**
 * Downloads, checks, unpacks and activates one release. Everything before `switching` leaves
 * `current` untouched; the switch is a single rename guarded by a transaction file, and a
 * new release that does not start (`--version`) is switched back before the job fails.
 */
export async function applyRelease(ctx: ApplyContext): Promise<{ previous: string; next: string }> {
  const { layout, jobs, manifest: m } = ctx;
  const previous = currentRelease(layout);
  if (!previous) throw new ApplyError('install_changed', 'no active release under current');
  const jobDir = join(jobs.dir, 'jobs', ctx.jobId);
  const bundle = join(jobDir, m.bundle);

  await ctx.onPhase('download');
  ctx.log(`downloading ${m.bundle} (${m.size} bytes) from ${ctx.feed.location}`);
  await fetchVerifiedBundle(ctx.feed, m, bundle).catch((err: Error) => {
    throw new ApplyError('update_failed', `download refused: ${err.message}`);
  });

  await ctx.onPhase('validate');
  const staging = join(layout.releasesDir, `.staging-${ctx.jobId}`);
  await rm(staging, { recursive: true, force: true });
  try {
    await extractBundle(bundle, staging);
    const said = await releaseVersion(staging).catch((err: Error) => {
      throw new Error(`bin/dash --version failed: ${err.message}`);
    });
    if (said !== m.version) throw new Error(`bin/dash reports ${said}, expected ${m.version}`);
    await writeStamp(staging, {
      version: m.version,
      sha256: m.sha256,
      installed_at: ctx.stampTime,
    });
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    throw new ApplyError('update_failed', `bundle refused: ${(err as Error).message}`);
  } finally {
    await rm(bundle, { force: true });
  }
  const next = releaseDirFor(layout, m.version, ctx.jobId);
  await rename(staging, next);
  ctx.log(`release ${m.version} unpacked into ${next}`);

  await ctx.onPhase('prepared');
  const tx: Transaction = { job_id: ctx.jobId, previous: previous.dir, next };
  jobs.writeTransaction(tx);
  await ctx.onPhase('switching');
  await switchCurrent(layout, next);
  ctx.log(`current -> ${next}`);

  await ctx.onPhase('starting');
  try {
    const said = await releaseVersion(layout.currentLink);
    if (said !== m.version) throw new Error(`reports ${said}`);
  } catch (err) {
    await switchCurrent(layout, previous.dir);
    jobs.clearTransaction();
    await rm(next, { recursive: true, force: true });
    throw new ApplyError(
      'update_failed',
      `new release did not start (${(err as Error).message}); switched back to ${previous.stamp.version}`,
    );
  }
  jobs.clearTransaction();

  await ctx.onPhase('cleanup');
  await pruneReleases(layout, [next, previous.dir]);
  return { previous: previous.dir, next };
}

export type RecoveryOutcome =
  | { kind: 'nothing' }
  | { kind: 'forward'; release: string }
  | { kind: 'rolled_back'; release: string };

function complete(dir: string): boolean {
  return readStamp(dir) !== undefined && existsSync(join(dir, 'bin', 'dash'));
}

/**
 * Finishes an interrupted switch: when `current` already names the complete new release the
 * update is kept, otherwise `current` goes back to the previous release. Idempotent.
 */
export async function recoverInstall(
  layout: InstallLayout,
  jobs: JobStore,
): Promise<RecoveryOutcome> {
  const tx = jobs.transaction();
  await rm(`${layout.currentLink}.new`, { force: true });
  if (!tx) return { kind: 'nothing' };
  const target = await currentTarget(layout);
  const resolved = target && existsSync(target) ? realpathSync(target) : undefined;
  if (resolved === tx.next && complete(tx.next)) {
    const said = await releaseVersion(tx.next).catch(() => undefined);
    if (said !== undefined) {
      jobs.clearTransaction();
      return { kind: 'forward', release: tx.next };
    }
  }
  if (!complete(tx.previous)) {
    throw new Error(`previous release ${tx.previous} is incomplete; reinstall Dash by hand`);
  }
  await switchCurrent(layout, tx.previous);
  if (tx.next !== tx.previous) await rm(tx.next, { recursive: true, force: true });
  jobs.clearTransaction();
  return { kind: 'rolled_back', release: tx.previous };
}
