import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { PACKAGE_ROOT } from '../platform/package-root.js';
import { agentBinaryProblem } from './agent-binaries.js';
import { AGENT_TARGETS, type AgentTarget } from './agent-targets.js';
import { DigestCache } from './digest-cache.js';

/** Where scripts/build-agent-binaries.ts leaves the standalone agents (`make agents`, `make run`). */
export const DEFAULT_AGENT_BIN_DIR = join(PACKAGE_ROOT, 'dist', 'agent', 'bin');

/** Deploy assets the standalone agents are published as, relative to $DASH_HOME/deploy. */
export const AGENT_ASSET_PATHS = AGENT_TARGETS.map((t) => t.asset);

export interface AgentAssetsResult {
  /** Assets written this time (new or changed). */
  written: string[];
  /** Assets that already held the same bytes and were left untouched. */
  unchanged: string[];
  /** Targets with no build to publish (`make agents` builds them). */
  missing: string[];
  /** Builds refused because their header does not match the target (asset path: reason). */
  rejected: string[];
  /** Files read to compute a digest (0 on a start where nothing changed). */
  hashed: number;
}

/** Where the digests of builds and published copies are kept between starts. */
export const DIGEST_CACHE_FILE = 'deploy-digests.json';

/** Copies over `dest` atomically (temporary name, then rename). */
function replaceFile(src: string, dest: string, mode: number): void {
  mkdirSync(dirname(dest), { recursive: true });
  const temp = `${dest}.tmp-${process.pid}`;
  try {
    copyFileSync(src, temp);
    chmodSync(temp, mode);
    renameSync(temp, dest);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}

/** Publishes `src` as `dest` unless it holds the same bytes already; true when written. */
function publishFile(src: string, dest: string, mode: number, digests: DigestCache): boolean {
  const digest = digests.digest(src);
  if (
    existsSync(dest) &&
    statSync(dest).size === statSync(src).size &&
    digests.digest(dest) === digest
  ) {
    return false;
  }
  replaceFile(src, dest, mode);
  digests.remember(dest, digest);
  return true;
}

function publishOne(
  t: AgentTarget,
  binDir: string,
  deployDir: string,
  r: AgentAssetsResult,
  digests: DigestCache,
): void {
  const src = join(binDir, t.asset);
  if (!existsSync(src)) {
    r.missing.push(t.asset);
    return;
  }
  const problem = agentBinaryProblem(t, src);
  if (problem) {
    r.rejected.push(`${t.asset}: ${problem}`);
    return;
  }
  const dest = join(deployDir, t.asset);
  const gz = `${src}.gz`;
  const digest = digests.digest(src);
  const same =
    existsSync(dest) &&
    statSync(dest).size === statSync(src).size &&
    digests.digest(dest) === digest;
  if (same) {
    r.unchanged.push(t.asset);
  } else {
    // The old .gz goes first: it must never be served next to a binary it does not match.
    rmSync(`${dest}.gz`, { force: true });
    replaceFile(src, dest, 0o755);
    digests.remember(dest, digest);
    r.written.push(t.asset);
  }
  if (existsSync(gz)) publishFile(gz, `${dest}.gz`, 0o644, digests);
}

/**
 * Publishes the standalone agents under $DASH_HOME/deploy. Only builds whose header matches their
 * target are published. Each asset is replaced atomically, so a node downloading during an upgrade
 * never reads half a file; identical assets are not rewritten, which keeps their mtime (and Dash's
 * digest cache) stable. A `.gz` copy made by the build is published next to its binary and served
 * to clients that accept gzip. Digests are kept in $DASH_HOME/deploy-digests.json (DigestCache),
 * so a start with nothing new reads no build at all.
 */
export function publishAgentAssets(
  dashHome: string,
  binDir: string = DEFAULT_AGENT_BIN_DIR,
): AgentAssetsResult {
  const result: AgentAssetsResult = {
    written: [],
    unchanged: [],
    missing: [],
    rejected: [],
    hashed: 0,
  };
  const deployDir = join(dashHome, 'deploy');
  mkdirSync(dashHome, { recursive: true });
  const digests = new DigestCache(join(dashHome, DIGEST_CACHE_FILE));
  for (const t of AGENT_TARGETS) publishOne(t, binDir, deployDir, result, digests);
  digests.save();
  result.hashed = digests.hashed;
  return result;
}
