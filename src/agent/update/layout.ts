import { basename, dirname, join, resolve, sep } from 'node:path';

export const DEFAULT_LAYOUT_ROOT = '/var/lib/nodeagent';

/** Where an update is installed, when the running agent is one that may update itself. */
export type ManagedLayout = { kind: 'releases'; root: string } | { kind: 'runner'; binary: string };

export interface LayoutProbe {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  /** Path the agent was started from (process.argv[1]). */
  scriptPath: string | undefined;
  /** /var/lib/nodeagent, or a temporary tree in tests. */
  root?: string;
}

/**
 * Spec §4.4 rule 6: manifests are acted on only by a managed agent. On Windows that is one the
 * runner started (NODE_RUNNER=1); on Linux and macOS one started as <root>/current/nodeagent or
 * <root>/releases/<version>/nodeagent. Every other copy ignores manifests.
 */
export function detectLayout(probe: LayoutProbe): ManagedLayout | undefined {
  if (!probe.scriptPath) return undefined;
  const script = resolve(probe.scriptPath);
  if (probe.platform === 'win32') {
    return probe.env.NODE_RUNNER === '1' ? { kind: 'runner', binary: script } : undefined;
  }
  const root = resolve(probe.root ?? DEFAULT_LAYOUT_ROOT);
  if (basename(script) !== 'nodeagent') return undefined;
  const dir = dirname(script);
  if (dir === join(root, 'current')) return { kind: 'releases', root };
  const parent = dirname(dir);
  const version = basename(dir);
  if (
    parent === join(root, 'releases') &&
    version !== '..' &&
    version !== '.' &&
    !version.includes(sep)
  ) {
    return { kind: 'releases', root };
  }
  return undefined;
}
