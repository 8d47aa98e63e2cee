import { basename, dirname, join, resolve, sep } from 'node:path';

export const DEFAULT_LAYOUT_ROOT = '/var/lib/nodeagent';
/** Where Ithiltir-node keeps its releases, `current` link and report.yaml (reference §1.8). */
export const ITHILTIR_LAYOUT_ROOT = '/var/lib/ithiltir-node';

/** Where an update is installed, when the running agent is one that may update itself. */
export type ManagedLayout =
  | {
      kind: 'releases';
      root: string;
      /** File name of the agent in releases/<version>/ and current/ (the service starts it). */
      binaryName: string;
    }
  | { kind: 'runner'; binary: string };

export interface LayoutProbe {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  /** Path the agent was started from (see agentPath()). */
  scriptPath: string | undefined;
  /** /var/lib/nodeagent, or a temporary tree in tests (also $NODEAGENT_HOME). */
  root?: string;
}

/**
 * The release layouts an agent may run from: Dash's own, and Ithiltir-node's, which the Dash
 * agent takes over in place when it replaces Ithiltir-node (same paths, same binary name, so
 * the existing service unit keeps starting it). NODEAGENT_HOME / ITHILTIR_NODE_HOME move them.
 */
export function releaseLayouts(
  env: Record<string, string | undefined>,
  root?: string,
): { root: string; binaryName: string }[] {
  return [
    { root: resolve(root ?? env.NODEAGENT_HOME ?? DEFAULT_LAYOUT_ROOT), binaryName: 'nodeagent' },
    {
      root: resolve(env.ITHILTIR_NODE_HOME ?? ITHILTIR_LAYOUT_ROOT),
      binaryName: 'ithiltir-node',
    },
  ];
}

/**
 * Spec §4.4 rule 6: manifests are acted on only by a managed agent. On Windows that is one the
 * runner started (NODE_RUNNER=1, or ITHILTIR_NODE_RUNNER=1 under Ithiltir-node's runner); on Linux
 * and macOS one started as <root>/current/<name> or <root>/releases/<version>/<name>. Every other
 * copy ignores manifests.
 */
export function detectLayout(probe: LayoutProbe): ManagedLayout | undefined {
  if (!probe.scriptPath) return undefined;
  const script = resolve(probe.scriptPath);
  if (probe.platform === 'win32') {
    const runner = probe.env.NODE_RUNNER === '1' || probe.env.ITHILTIR_NODE_RUNNER === '1';
    return runner ? { kind: 'runner', binary: script } : undefined;
  }
  for (const { root, binaryName } of releaseLayouts(probe.env, probe.root)) {
    if (basename(script) !== binaryName) continue;
    const dir = dirname(script);
    if (dir === join(root, 'current')) return { kind: 'releases', root, binaryName };
    const version = basename(dir);
    if (
      dirname(dir) === join(root, 'releases') &&
      version !== '..' &&
      version !== '.' &&
      !version.includes(sep)
    ) {
      return { kind: 'releases', root, binaryName };
    }
  }
  return undefined;
}
