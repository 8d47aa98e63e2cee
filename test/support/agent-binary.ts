import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostAgentTarget } from '../../src/deploy/agent-targets.js';

const ROOT = new URL('../../', import.meta.url).pathname;
/** Shared by test files and runs; the build script rebuilds only when the bundle changed. */
export const TEST_AGENT_BIN_DIR = join(ROOT, 'node_modules', '.cache', 'dash-agent', 'test-bin');

/**
 * Builds this machine's standalone agent from the current source (bundle, then Bun --compile)
 * and returns its path. The bundle goes to a private directory so parallel test files never
 * read each other's half-written bundle.
 */
export function buildHostAgent(): string {
  const target = hostAgentTarget();
  if (!target) throw new Error(`no agent target for ${process.platform}/${process.arch}`);
  const bundleDir = mkdtempSync(join(tmpdir(), 'agent-bundle-'));
  const run = (args: string[]): void => {
    const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${args.join(' ')} failed:\n${r.stderr}${r.stdout}`);
  };
  run([join(ROOT, 'scripts', 'build-agent.mjs'), '--outdir', bundleDir]);
  run([
    '--import',
    'tsx',
    join(ROOT, 'scripts', 'build-agent-binaries.ts'),
    '--host',
    '--check',
    '--bundle',
    join(bundleDir, 'nodeagent.mjs'),
    '--outdir',
    TEST_AGENT_BIN_DIR,
  ]);
  return join(TEST_AGENT_BIN_DIR, target.asset);
}
