import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, readdir, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import * as tar from 'tar';

const run = promisify(execFile);

/**
 * The installed layout under DASH_HOME (docs/operations.md):
 *   releases/<version>/   one complete release each (dist/, web/dist, node_modules, bin/dash)
 *   current -> releases/<version>   switched by rename(2), so it always names a whole release
 *   bin/dash              launcher that execs current/bin/dash
 */
export interface InstallLayout {
  home: string;
  releasesDir: string;
  currentLink: string;
  runtimeDir: string;
}

export function installLayout(home: string): InstallLayout {
  return {
    home,
    releasesDir: join(home, 'releases'),
    currentLink: join(home, 'current'),
    runtimeDir: join(home, 'runtime', 'dash-update'),
  };
}

/** Written into each release directory when it is installed. */
export interface ReleaseStamp {
  version: string;
  sha256: string;
  installed_at: string;
}

export const STAMP_FILE = 'RELEASE.json';

export function readStamp(releaseDir: string): ReleaseStamp | undefined {
  try {
    const s = JSON.parse(readFileSync(join(releaseDir, STAMP_FILE), 'utf8')) as ReleaseStamp;
    return typeof s.version === 'string' && typeof s.sha256 === 'string' ? s : undefined;
  } catch {
    return undefined;
  }
}

/** The release `current` names, resolved; undefined when there is no installed layout. */
export function currentRelease(
  layout: InstallLayout,
): { dir: string; stamp: ReleaseStamp } | undefined {
  try {
    const dir = realpathSync(layout.currentLink);
    const stamp = readStamp(dir);
    return stamp ? { dir, stamp } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Opaque fingerprint of what is installed: changes with every install, reinstall or switch,
 * so a plan made before any of them is recognised as stale.
 */
export function installRevision(layout: InstallLayout): string | undefined {
  const cur = currentRelease(layout);
  if (!cur) return undefined;
  const { version, sha256, installed_at } = cur.stamp;
  return createHash('sha256')
    .update(`${version}\n${sha256}\n${installed_at}\n${cur.dir}`)
    .digest('hex');
}

/** Limits on what an extracted bundle may hold (a bundle is signed, but defence in depth). */
export const ARCHIVE_LIMITS = { maxEntries: 60_000, maxExpandedBytes: 4 * 1024 ** 3 };

function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Lists the archive first and refuses absolute paths, `..`, links leaving the tree, device
 * files and oversized contents, then extracts into `dest` (which must not exist yet).
 */
export async function extractBundle(file: string, dest: string): Promise<void> {
  let entries = 0;
  let bytes = 0;
  const problems: string[] = [];
  await tar.t({
    file,
    strict: true,
    onReadEntry: (e) => {
      entries += 1;
      bytes += e.size ?? 0;
      const p = normalize(e.path);
      const target = resolve(dest, p);
      if (isAbsolute(e.path) || !inside(dest, target)) problems.push(`path ${e.path}`);
      if (e.type === 'SymbolicLink' || e.type === 'Link') {
        const to =
          e.type === 'Link'
            ? resolve(dest, e.linkpath ?? '')
            : resolve(dirname(target), e.linkpath ?? '');
        if (!inside(dest, to)) problems.push(`link ${e.path} -> ${e.linkpath}`);
      } else if (!['File', 'OldFile', 'Directory', 'ContiguousFile'].includes(e.type)) {
        problems.push(`entry type ${e.type} at ${e.path}`);
      }
    },
  });
  if (problems.length > 0) throw new Error(`bundle refused: ${problems.slice(0, 3).join('; ')}`);
  if (entries > ARCHIVE_LIMITS.maxEntries) throw new Error(`bundle has ${entries} entries`);
  if (bytes > ARCHIVE_LIMITS.maxExpandedBytes) throw new Error('bundle expands beyond 4 GiB');
  await mkdir(dest, { recursive: false });
  await tar.x({ file, cwd: dest, strict: true, preservePaths: false, noChmod: false });
}

/** Runs `<release>/bin/dash --version`; a release that cannot say its version is not complete. */
export async function releaseVersion(releaseDir: string): Promise<string> {
  const bin = join(releaseDir, 'bin', 'dash');
  const { stdout } = await run(bin, ['--version'], { timeout: 20_000, cwd: releaseDir });
  return stdout.trim();
}

/** Atomically points `current` at `releaseDir`: a new link beside it, renamed over it. */
export async function switchCurrent(layout: InstallLayout, releaseDir: string): Promise<void> {
  const tmp = `${layout.currentLink}.new`;
  await rm(tmp, { force: true });
  await symlink(relative(layout.home, releaseDir), tmp);
  await rename(tmp, layout.currentLink);
}

/** Where `current` points, without requiring the target to exist. */
export async function currentTarget(layout: InstallLayout): Promise<string | undefined> {
  try {
    return resolve(layout.home, await readlink(layout.currentLink));
  } catch {
    return undefined;
  }
}

export async function writeStamp(releaseDir: string, stamp: ReleaseStamp): Promise<void> {
  await writeFile(join(releaseDir, STAMP_FILE), JSON.stringify(stamp, null, 2) + '\n');
}

/** Keeps `current`, the given previous release and anything in flight; removes the rest. */
export async function pruneReleases(layout: InstallLayout, keep: string[]): Promise<void> {
  const kept = new Set(keep.map((k) => resolve(k)));
  for (const name of await readdir(layout.releasesDir).catch(() => [])) {
    const dir = join(layout.releasesDir, name);
    if (name.startsWith('.') || kept.has(dir)) continue;
    await rm(dir, { recursive: true, force: true });
  }
}

/** Writes the launcher `bin/dash` that always starts the release `current` names. */
export async function writeLauncher(layout: InstallLayout): Promise<void> {
  const bin = join(layout.home, 'bin');
  await mkdir(bin, { recursive: true });
  const script =
    '#!/bin/sh\n# Starts the active Dash release (see docs/operations.md).\nexec "$(dirname "$0")/../current/bin/dash" "$@"\n';
  await writeFile(join(bin, 'dash'), script, { mode: 0o755 });
}

/** True when the running code is the release `current` names (an installed layout). */
export function runningFromCurrent(layout: InstallLayout, runningRoot: string): boolean {
  try {
    return (
      existsSync(layout.currentLink) &&
      realpathSync(layout.currentLink) === realpathSync(runningRoot)
    );
  } catch {
    return false;
  }
}
