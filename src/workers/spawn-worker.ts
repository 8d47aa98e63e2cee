import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * Starts one of the worker entries (`name` without extension): the built bundle's entry, which
 * sits in dist/ beside the chunk holding this code (scripts/build-server.mjs), or,
 * when running from TypeScript sources (dev, tests), a bootstrap that loads it through tsx:
 * loader flags are not inherited by worker threads on Node 20.
 */
export function spawnWorker(name: string, workerData: unknown): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL(`./${name}.js`, import.meta.url), { workerData });
  }
  const tsxDir = dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const api = pathToFileURL(join(tsxDir, 'dist/esm/api/index.mjs')).href;
  const entry = new URL(`./${name}.ts`, import.meta.url).href;
  const boot =
    `import(${JSON.stringify(api)}).then((tsx) => ` +
    `tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(boot, { eval: true, workerData });
}
