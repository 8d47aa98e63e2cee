/**
 * Child of test/platform/thread-names.test.ts: names Node's threads as `dash serve` does, starts
 * a worker that names itself, and prints every thread's kernel name as JSON.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { nameNodeThreads } from '../../src/platform/thread-names.js';

const named = await nameNodeThreads();
const api = new URL('../../src/platform/thread-names.ts', import.meta.url).href;
const worker = new Worker(
  `import('tsx/esm/api').then((tsx) => tsx.tsImport(${JSON.stringify(api)}, ${JSON.stringify(import.meta.url)}))` +
    `.then((m) => { m.nameThisThread('ingest-0'); require('node:worker_threads').parentPort.postMessage('named'); setInterval(() => {}, 1000); })`,
  { eval: true },
);
await new Promise((resolve) => worker.once('message', resolve));
const names = readdirSync('/proc/self/task').map((tid) => ({
  main: Number(tid) === process.pid,
  name: readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim(),
}));
process.stdout.write(JSON.stringify({ named, names }));
await worker.terminate();
