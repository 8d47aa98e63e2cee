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
 * and returns its path; with `bunVersion`, compiled with that pinned Bun release. The bundle goes to a private directory so parallel test files never
 * read each other's half-written bundle.
 */
export function buildHostAgent(bunVersion?: string): string {
  const target = hostAgentTarget();
  if (!target) throw new Error(`no agent target for ${process.platform}/${process.arch}`);
  const bundleDir = mkdtempSync(join(tmpdir(), 'agent-bundle-'));
  const outDir = bunVersion ? join(TEST_AGENT_BIN_DIR, `bun-${bunVersion}`) : TEST_AGENT_BIN_DIR;
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
    outDir,
    ...(bunVersion ? ['--bun-version', bunVersion] : []),
  ]);
  return join(outDir, target.asset);
}
