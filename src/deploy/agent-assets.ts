import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where `npm run build` leaves the agent bundle. */
export const DEFAULT_AGENT_BUNDLE = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'dist',
  'agent',
  'nodeagent.mjs',
);

/**
 * Deploy assets the bundle is published as, relative to $DASH_HOME/deploy. The agent is one Node
 * script, so the same file serves every architecture; the per-arch names exist because installers
 * and upgrade manifests ask for node_<os>_<arch> (reference §1.6).
 */
export const AGENT_ASSET_PATHS = [
  'linux/node_linux_amd64',
  'linux/node_linux_arm64',
  'macos/node_macos_amd64',
  'macos/node_macos_arm64',
] as const;

export interface AgentAssetsResult {
  /** Assets written this time (new or changed). */
  written: string[];
  /** Assets that already held the same bytes and were left untouched. */
  unchanged: string[];
}

const sha256 = (buf: Buffer): string => createHash('sha256').update(buf).digest('hex');

/**
 * Publishes the agent bundle under $DASH_HOME/deploy. Each asset is replaced atomically (copy to a
 * temporary name, then rename), so a node downloading during an upgrade never reads half a file;
 * identical assets are not rewritten, which keeps their mtime (and Dash's digest cache) stable.
 */
export function publishAgentAssets(
  dashHome: string,
  bundlePath: string = DEFAULT_AGENT_BUNDLE,
): AgentAssetsResult {
  if (!existsSync(bundlePath)) {
    throw new Error(`agent bundle not found at ${bundlePath}; run npm run build`);
  }
  const bundle = readFileSync(bundlePath);
  const digest = sha256(bundle);
  const result: AgentAssetsResult = { written: [], unchanged: [] };
  for (const rel of AGENT_ASSET_PATHS) {
    const dest = join(dashHome, 'deploy', rel);
    if (existsSync(dest) && sha256(readFileSync(dest)) === digest) {
      result.unchanged.push(rel);
      continue;
    }
    mkdirSync(dirname(dest), { recursive: true });
    const temp = `${dest}.tmp-${process.pid}`;
    try {
      copyFileSync(bundlePath, temp);
      chmodSync(temp, 0o755);
      renameSync(temp, dest);
    } catch (err) {
      rmSync(temp, { force: true });
      throw err;
    }
    result.written.push(rel);
  }
  return result;
}
