import { readdirSync } from 'node:fs';
import { AGENT_VERSION } from './version.js';

/** `standalone` when running as the Bun-compiled executable, `node` as the JS bundle. */
export const AGENT_RUNTIME: 'standalone' | 'node' =
  typeof (process.versions as Record<string, string | undefined>).bun === 'string'
    ? 'standalone'
    : 'node';

function detectLibc(): 'glibc' | 'musl' | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return readdirSync('/lib').some((f) => f.startsWith('ld-musl-')) ? 'musl' : 'glibc';
  } catch {
    return 'glibc';
  }
}

const OS: Partial<Record<NodeJS.Platform, string>> = {
  linux: 'linux',
  darwin: 'macos',
  win32: 'windows',
};
const ARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64' };

/**
 * The User-Agent of every request: `nodeagent/<version> (<os>; <arch>[; <libc>]; <runtime>)`.
 * Dash reads it to pick the build an upgrade needs (musl or glibc) and to refuse an upgrade
 * that could not start (a JS agent whose service runs it with `node`).
 */
export const AGENT_USER_AGENT = (() => {
  const libc = detectLibc();
  const parts = [
    OS[process.platform] ?? process.platform,
    ARCH[process.arch] ?? process.arch,
    ...(libc ? [libc] : []),
    AGENT_RUNTIME,
  ];
  return `nodeagent/${AGENT_VERSION} (${parts.join('; ')})`;
})();

/**
 * The file this agent was started from: the executable for the standalone build (whose argv[1]
 * is a path inside Bun's embedded file system), the script for the JS bundle.
 */
export function agentPath(): string | undefined {
  return AGENT_RUNTIME === 'standalone' ? process.execPath : process.argv[1];
}
