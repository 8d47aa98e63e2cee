import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * Young generation of a worker's isolate, in MB (V8 splits it into two semi-spaces and a
 * large-object space of a semi-space each, so 24 MB is 8 MB semi-spaces). V8's own ceiling on a
 * 64-bit machine is 16 MB semi-spaces, and an ingest thread under load grows to it: three
 * 16 MB spaces per thread, committed and kept. What survives a scavenge there is mostly the
 * batch waiting for its fsync, a few MB, so half the size costs a few more scavenges and
 * promotes little more (docs/ingest-performance.md, "Memory"). Only the young generation is
 * bounded: an old-generation limit is a hard ceiling (the thread dies with
 * ERR_WORKER_OUT_OF_MEMORY), where this one only makes scavenges more frequent.
 */
export const WORKER_YOUNG_GENERATION_MB = 24;

const RESOURCE_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB };

/**
 * Starts one of the worker entries (`name` without extension): the built bundle's entry, which
 * sits in dist/ beside the chunk holding this code (scripts/build-server.mjs), or,
 * when running from TypeScript sources (dev, tests), a bootstrap that loads it through tsx:
 * loader flags are not inherited by worker threads on Node 20.
 */
export function spawnWorker(name: string, workerData: unknown): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL(`./${name}.js`, import.meta.url), {
      workerData,
      resourceLimits: RESOURCE_LIMITS,
    });
  }
  const tsxDir = dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const api = pathToFileURL(join(tsxDir, 'dist/esm/api/index.mjs')).href;
  const entry = new URL(`./${name}.ts`, import.meta.url).href;
  const boot =
    `import(${JSON.stringify(api)}).then((tsx) => ` +
    `tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(boot, { eval: true, workerData, resourceLimits: RESOURCE_LIMITS });
}
