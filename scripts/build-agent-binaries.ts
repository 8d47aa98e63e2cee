// Compiles the agent bundle (dist/agent/nodeagent.mjs, from scripts/build-agent.mjs) into one
// standalone executable per platform with Bun's --compile, into dist/agent/bin/<asset path>.
//
//   node --import tsx scripts/build-agent-binaries.ts [--all | --host | <target id>…]
//        [--bundle dist/agent/nodeagent.mjs] [--outdir dist/agent/bin] [--gzip[=max]] [--check]
//        [--bun-version <pinned release>]
//
// --bun-version compiles the chosen targets with another pinned Bun release than their own (the
// tests run this machine's agent on the Windows builds' release, which no Windows host here can).
// --gzip also writes <asset>.gz, which Dash serves to clients accepting gzip: zlib -9, or a
// cached 7-Zip copy of the same bytes; --gzip=max makes the smaller 7-Zip copy (scripts/agent-gzip.ts).
// --check verifies every built file's header (format, CPU, C library) against its target.
//
// Each target's Bun runtime is the npm package named in src/deploy/agent-targets.ts, fetched with
// `npm pack` (an ordinary registry download, checked against the pinned integrity) into
// node_modules/.cache/dash-agent/, and handed to `bun build --compile-executable-path`, so Bun
// never downloads anything itself. Outputs are rebuilt only when the bundle or runtime changed.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';
import { agentBinaryProblem } from '../src/deploy/agent-binaries.js';
import { gzipAgent, inParallel, type GzipMethod } from './agent-gzip.js';
import {
  AGENT_TARGETS,
  BUN_VERSION,
  hostAgentTarget,
  pinnedRuntimeIntegrity,
  type AgentTarget,
} from '../src/deploy/agent-targets.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const outDir = option('--outdir') ?? join(root, 'dist', 'agent', 'bin');
const bundle = option('--bundle') ?? join(root, 'dist', 'agent', 'nodeagent.mjs');
const VALUE_OPTIONS = new Set(['--outdir', '--bundle', '--bun-version']);
const bunVersionOverride = option('--bun-version');
const cacheRoot = join(root, 'node_modules', '.cache', 'dash-agent');
const cacheDir = (bunVersion: string): string => join(cacheRoot, `bun-${bunVersion}`);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const gzipArg = args.find((a) => a === '--gzip' || a.startsWith('--gzip='));
const gzipMethod: GzipMethod | undefined =
  gzipArg === undefined ? undefined : gzipArg === '--gzip=max' ? 'max' : 'fast';

/**
 * Options of a build (part of the rebuild stamp).
 * - The JIT policy keeps the agent's code in JavaScriptCore's interpreter: it runs a few
 *   milliseconds every 3 s, and the optimising JIT tiers cost it about 4.5 MiB resident (code
 *   pages and JIT memory) for no measurable CPU gain (bench/agent, docs/agent.md). Bun 1.3 (the
 *   Windows builds) has no such option.
 * - A monitoring agent must not pick up .env or bunfig.toml from whatever directory it runs in.
 */
function buildFlags(bunVersion: string): string[] {
  return [
    '--minify',
    ...(bunVersion === BUN_VERSION ? ['--compile-jit-policy=1000'] : []),
    '--no-compile-autoload-dotenv',
    '--no-compile-autoload-bunfig',
  ];
}

function selectTargets(): AgentTarget[] {
  const picked = pickTargets();
  if (bunVersionOverride === undefined) return picked;
  return picked.map((t) => ({
    ...t,
    bunVersion: bunVersionOverride,
    runtimeIntegrity: pinnedRuntimeIntegrity(t.runtimePackage, bunVersionOverride),
  }));
}

function pickTargets(): AgentTarget[] {
  const ids = args.filter((a, i) => !a.startsWith('--') && !VALUE_OPTIONS.has(args[i - 1] ?? ''));
  if (args.includes('--all')) return [...AGENT_TARGETS];
  if (ids.length === 0 || args.includes('--host')) {
    const host = hostAgentTarget();
    if (!host) throw new Error(`no agent target for ${process.platform}/${process.arch}`);
    return [host];
  }
  return ids.map((id) => {
    const t = AGENT_TARGETS.find((x) => x.id === id);
    if (!t)
      throw new Error(`unknown target ${id}; known: ${AGENT_TARGETS.map((x) => x.id).join(', ')}`);
    return t;
  });
}

const sha = (algo: string, data: Buffer, enc: 'hex' | 'base64'): string =>
  createHash(algo).update(data).digest(enc);

/** The Bun runtime for a target, from its npm package (cached, integrity-checked). */
function runtimeFor(t: AgentTarget, bunVersion = t.bunVersion): string {
  const runtimeIntegrity = pinnedRuntimeIntegrity(t.runtimePackage, bunVersion);
  const dir = cacheDir(bunVersion);
  const exe = join(dir, t.runtimePackage.replace('/', '+'), t.os === 'windows' ? 'bun.exe' : 'bun');
  if (existsSync(exe)) return exe;
  mkdirSync(dir, { recursive: true });
  const work = mkdtempSync(join(dir, '.fetch-'));
  try {
    const spec = `${t.runtimePackage}@${bunVersion}`;
    process.stdout.write(`fetching ${spec} from the npm registry\n`);
    execFileSync(npm, ['pack', spec, '--silent', '--pack-destination', work], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const tgz = readdirSync(work).find((f) => f.endsWith('.tgz'));
    if (!tgz) throw new Error(`npm pack ${spec} produced no tarball`);
    const integrity = `sha512-${sha('sha512', readFileSync(join(work, tgz)), 'base64')}`;
    if (integrity !== runtimeIntegrity) {
      throw new Error(
        `${spec}: integrity ${integrity} differs from the pinned ${runtimeIntegrity}`,
      );
    }
    execFileSync('tar', ['-xzf', tgz], { cwd: work });
    const binary = join(work, 'package', 'bin', t.os === 'windows' ? 'bun.exe' : 'bun');
    if (!existsSync(binary)) throw new Error(`${spec} has no ${binary}`);
    mkdirSync(dirname(exe), { recursive: true });
    chmodSync(binary, 0o755);
    renameSync(binary, exe);
    return exe;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * A Bun of the given release that runs here: the `bun` devDependency when its postinstall ran
 * and it is that release, else the host platform's runtime package of that release (a compiled
 * executable's format belongs to the Bun release that wrote it, so each release compiles its own).
 */
function compiler(bunVersion: string): string {
  const installed = join(root, 'node_modules', 'bun', 'bin', 'bun.exe');
  try {
    if (bunVersion === BUN_VERSION && statSync(installed).size > 1_000_000) {
      const v = execFileSync(installed, ['--version'], { encoding: 'utf8' }).trim();
      if (v === BUN_VERSION) return installed;
    }
  } catch {
    // fall through to the runtime package
  }
  const host = hostAgentTarget();
  if (!host) throw new Error(`Bun has no runtime for ${process.platform}/${process.arch}`);
  return runtimeFor(host, bunVersion);
}

async function main(): Promise<void> {
  const declared = (
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    }
  ).devDependencies.bun;
  if (declared !== BUN_VERSION) {
    throw new Error(`package.json pins bun ${declared}, agent-targets.ts expects ${BUN_VERSION}`);
  }
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing; run npm run build:agent first`);
  const bundleHash = sha('sha256', readFileSync(bundle), 'hex');
  const targets = selectTargets();
  for (const t of targets) {
    const out = join(outDir, t.asset);
    const stamp = `${out}.stamp`;
    const flags = buildFlags(t.bunVersion);
    const key = `${bundleHash} ${t.bunTarget} ${t.runtimeIntegrity} ${flags.join(' ')}\n`;
    if (existsSync(out) && existsSync(stamp) && readFileSync(stamp, 'utf8') === key) {
      process.stdout.write(`agent ${t.id}: up to date (${out})\n`);
      check(t, out);
      continue;
    }
    const runtime = runtimeFor(t);
    const bun = compiler(t.bunVersion);
    mkdirSync(dirname(out), { recursive: true });
    const temp = `${out}.tmp-${process.pid}${t.os === 'windows' ? '.exe' : ''}`;
    execFileSync(
      bun,
      [
        'build',
        bundle,
        '--compile',
        ...flags,
        `--target=${t.bunTarget}`,
        `--compile-executable-path=${runtime}`,
        `--outfile=${temp}`,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'], cwd: root },
    );
    chmodSync(temp, 0o755);
    renameSync(temp, out);
    writeFileSync(stamp, key);
    process.stdout.write(`agent ${t.id}: ${out} (${MiB(statSync(out).size)})\n`);
    check(t, out);
  }
  if (gzipMethod) {
    const gzipCache = join(cacheDir(BUN_VERSION), 'gzip');
    // 7-Zip is single-threaded: one build per core.
    await inParallel(targets, availableParallelism(), async (t) => {
      const out = join(outDir, t.asset);
      const r = await gzipAgent(out, gzipMethod, gzipCache);
      const how = `${r.method === 'max' ? '7-Zip' : 'zlib -9'}${r.reused ? ', cached' : ''}`;
      process.stdout.write(`  ${t.asset}.gz: ${(r.bytes / 1e6).toFixed(2)} MB (${how})\n`);
    });
  }
}

const MiB = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MiB`;

/** The header check of one built executable (--check). */
function check(t: AgentTarget, out: string): void {
  if (!args.includes('--check')) return;
  const problem = agentBinaryProblem(t, out);
  if (problem) throw new Error(`agent ${t.id}: ${problem}`);
  process.stdout.write(`  header ok: ${t.format} ${t.arch}${t.libc ? ` ${t.libc}` : ''}\n`);
}

await main();
