import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { spawnWorker, WORKER_YOUNG_GENERATION_MB } from '../../src/workers/spawn-worker.js';
import type { PrepareWorkerData } from '../../src/workers/prepare-worker.js';

describe('worker heap limits', () => {
  it('bounds a worker young generation only, leaving the old generation to V8', async () => {
    const data: PrepareWorkerData = { staleAfterSec: 15, runtimeAsJson: false };
    const w = spawnWorker('prepare-worker', data);
    try {
      await once(w, 'online');
      const limits = w.resourceLimits!;
      expect(limits.maxYoungGenerationSizeMb).toBe(WORKER_YOUNG_GENERATION_MB);
      // Smaller than V8's own 64-bit ceiling (three 16 MB spaces), or it bounds nothing.
      expect(WORKER_YOUNG_GENERATION_MB).toBeLessThan(48);
      // No hard old-generation ceiling of ours: V8's default (a share of the machine's memory).
      expect(limits.maxOldGenerationSizeMb).toBeGreaterThan(512);
    } finally {
      await w.terminate();
    }
  });
});
