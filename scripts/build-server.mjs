// Builds the server into dist/ as a few ESM bundles (esbuild), after type-checking it with tsc:
// dist/main.js (the `dash` CLI and server), dist/ingest-worker.js and dist/prepare-worker.js
// (the worker threads' entries) and the chunks they share or load lazily (dist/chunk-*.js).
//
// Why a bundle rather than tsc's one file per module: Node 20 spent most of a start loading
// modules (about 1,900 files opened, each resolved, read and compiled separately), on the HTTP
// thread and again on each ingest thread (docs/ingest-performance.md "Startup"). One file per
// thread loads in a fraction of that. Every file is flat in dist/ so that a worker's entry sits
// next to the chunk that starts it (src/workers/spawn-worker.ts) and the package root is one
// level up (src/platform/package-root.ts).
//
// `--outdir <dir>` writes elsewhere (a folder inside the package: the bundle finds package.json,
// templates/ and node_modules above itself); `--no-typecheck` skips tsc (tests of the bundle).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import process from 'node:process';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const outDirArg = argv.indexOf('--outdir');
const outDir =
  outDirArg >= 0 && argv[outDirArg + 1] ? resolve(argv[outDirArg + 1]) : join(root, 'dist');

// The bundler does not type-check: the build still fails on a type error.
if (!argv.includes('--no-typecheck')) {
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noEmit'], {
    cwd: root,
    stdio: 'inherit',
  });
}

// Everything but the agent builds (dist/agent, made by build-agent.mjs and build-agent-binaries.ts)
// is this script's output: earlier bundles' chunks (hashed names) and files of the former
// one-file-per-module layout would otherwise linger.
mkdirSync(outDir, { recursive: true });
for (const name of readdirSync(outDir)) {
  if (name !== 'agent') rmSync(join(outDir, name), { recursive: true, force: true });
}

await build({
  absWorkingDir: root,
  entryPoints: {
    main: 'src/main.ts',
    'ingest-worker': 'src/workers/ingest-worker.ts',
    'prepare-worker': 'src/workers/prepare-worker.ts',
  },
  outdir: outDir,
  chunkNames: 'chunk-[hash]',
  bundle: true,
  // Lazily imported modules (import()) become chunks loaded on first use.
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Native addons stay packages; so does GramJS, large and loaded only for a Telegram user
  // account (src/notify/mtproto-lazy.ts); pg-native is pg's optional native binding, not installed.
  external: ['better-sqlite3', 'telegram', 'pg-native'],
  // CommonJS packages inside an ESM bundle still call require() for Node built-ins.
  banner: {
    js: "import { createRequire as __dashRequire } from 'node:module'; const require = __dashRequire(import.meta.url);",
  },
  sourcemap: 'linked',
  legalComments: 'linked',
  logLevel: 'warning',
});
process.stdout.write(`server: ${outDir}/main.js, ingest-worker.js, prepare-worker.js (esbuild)\n`);
