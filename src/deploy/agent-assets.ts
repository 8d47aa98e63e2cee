import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentBinaryProblem } from './agent-binaries.js';
import { AGENT_TARGETS, type AgentTarget } from './agent-targets.js';

/** Where scripts/build-agent-binaries.ts leaves the standalone agents (`make agents`, `make run`). */
export const DEFAULT_AGENT_BIN_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'dist',
  'agent',
  'bin',
);

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
}

function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function sameFile(a: string, b: string): boolean {
  return existsSync(b) && statSync(a).size === statSync(b).size && sha256File(a) === sha256File(b);
}

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

function publishOne(t: AgentTarget, binDir: string, deployDir: string, r: AgentAssetsResult): void {
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
  if (sameFile(src, dest)) {
    r.unchanged.push(t.asset);
  } else {
    // The old .gz goes first: it must never be served next to a binary it does not match.
    rmSync(`${dest}.gz`, { force: true });
    replaceFile(src, dest, 0o755);
    r.written.push(t.asset);
  }
  if (existsSync(gz) && !sameFile(gz, `${dest}.gz`)) replaceFile(gz, `${dest}.gz`, 0o644);
}

/**
 * Publishes the standalone agents under $DASH_HOME/deploy. Only builds whose header matches their
 * target are published. Each asset is replaced atomically, so a node downloading during an upgrade
 * never reads half a file; identical assets are not rewritten, which keeps their mtime (and Dash's
 * digest cache) stable. A `.gz` copy made by the build is published next to its binary and served
 * to clients that accept gzip.
 */
export function publishAgentAssets(
  dashHome: string,
  binDir: string = DEFAULT_AGENT_BIN_DIR,
): AgentAssetsResult {
  const result: AgentAssetsResult = { written: [], unchanged: [], missing: [], rejected: [] };
  const deployDir = join(dashHome, 'deploy');
  for (const t of AGENT_TARGETS) publishOne(t, binDir, deployDir, result);
  return result;
}
