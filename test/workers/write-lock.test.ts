import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { WriteLock } from '../../src/workers/write-lock.js';

/** A thread that takes the lock with WriteLock itself (loaded through tsx), then says so. */
function contender(buffer: SharedArrayBuffer): Worker {
  const tsxDir = dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const api = pathToFileURL(join(tsxDir, 'dist/esm/api/index.mjs')).href;
  const lock = new URL('../../src/workers/write-lock.ts', import.meta.url).href;
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    import(${JSON.stringify(api)})
      .then((tsx) => tsx.tsImport(${JSON.stringify(lock)}, ${JSON.stringify(import.meta.url)}))
      .then(({ WriteLock }) => {
        const lock = new WriteLock(workerData.buffer, 1);
        parentPort.postMessage('trying');
        lock.acquire();
        parentPort.postMessage('acquired');
        lock.release();
      });`;
  return new Worker(code, { eval: true, workerData: { buffer } });
}

const next = (w: Worker) => new Promise<string>((resolve) => w.once('message', resolve));

describe('WriteLock', () => {
  it('makes another thread wait until the holder releases, then lets it in', async () => {
    const buffer = WriteLock.buffer();
    const mine = new WriteLock(buffer, 0);
    mine.acquire();
    const w = contender(buffer);
    try {
      expect(await next(w)).toBe('trying');
      const acquired = next(w);
      const early = await Promise.race([
        acquired,
        new Promise((r) => setTimeout(() => r('still waiting'), 300)),
      ]);
      expect(early).toBe('still waiting');
      mine.release();
      expect(await acquired).toBe('acquired');
    } finally {
      await w.terminate();
    }
  });

  it('frees the slot of a thread that died holding it, and only that one', () => {
    const buffer = WriteLock.buffer();
    const lock = new WriteLock(buffer, 1);
    lock.acquire();
    WriteLock.releaseFor(buffer, 0);
    expect(new Int32Array(buffer)[0]).toBe(2);
    WriteLock.releaseFor(buffer, 1);
    expect(new Int32Array(buffer)[0]).toBe(0);
    lock.acquire();
    lock.release();
  });
});
