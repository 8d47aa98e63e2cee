// Bundles the node agent (src/agent) into one dependency-free ESM file for Node ≥ 20:
// dist/agent/nodeagent.mjs (executable, with a shebang) and dist/agent/VERSION.
// `--outdir <dir>` writes them elsewhere (tests build into a temporary directory).
import { build } from 'esbuild';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import process from 'node:process';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDirArg = process.argv.indexOf('--outdir');
const outDir =
  outDirArg > 0 && process.argv[outDirArg + 1]
    ? process.argv[outDirArg + 1]
    : join(root, 'dist', 'agent');
const outFile = join(outDir, 'nodeagent.mjs');

const versionSource = await readFile(join(root, 'src', 'agent', 'version.ts'), 'utf8');
const version = /AGENT_VERSION\s*=\s*'([^']+)'/.exec(versionSource)?.[1];
if (!version) throw new Error('AGENT_VERSION not found in src/agent/version.ts');

await mkdir(outDir, { recursive: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: [join(root, 'src', 'agent', 'main.ts')],
  outfile: outFile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minifySyntax: true,
  legalComments: 'none',
  banner: { js: '#!/usr/bin/env node' },
  metafile: true,
  logLevel: 'warning',
});

// The agent may use nothing but Node built-ins: any other import would be missing on the node.
const external = Object.values(result.metafile.outputs)
  .flatMap((o) => o.imports)
  .filter((i) => i.external && !i.path.startsWith('node:'));
if (external.length > 0) {
  throw new Error(
    `agent bundle imports non-builtin modules: ${external.map((i) => i.path).join(', ')}`,
  );
}
const inputs = Object.keys(result.metafile.inputs);
const foreign = inputs.filter((p) => !p.startsWith('src/agent/'));
if (foreign.length > 0)
  throw new Error(`agent bundle pulls in code outside src/agent: ${foreign.join(', ')}`);

await chmod(outFile, 0o755);
await writeFile(join(outDir, 'VERSION'), `${version}\n`);
const size = (await readFile(outFile)).length;
process.stdout.write(`agent ${version}: ${outFile} (${(size / 1024).toFixed(1)} KiB)\n`);
