import { describe, expect, it } from 'vitest';
import type { IngestBackend } from '../../src/workers/ingest-backend-port.js';
import { shardedIngestBackend } from '../../src/workers/ingest-backend.js';
import type { RollupRunResult } from '../../src/store/ports.js';

/** A shard whose seal and rollup end only when the test says so, logging starts and ends. */
function fakeShard(n: number, log: string[], release: Map<string, () => void>): IngestBackend {
  const hold = (what: string) =>
    new Promise<void>((resolve) => {
      log.push(`${what}${n} start`);
      release.set(`${what}${n}`, () => {
        log.push(`${what}${n} end`);
        resolve();
      });
    });
  return {
    process: () => Promise.reject(new Error('unused')),
    setRenderFacts: () => undefined,
    rollup: async () => {
      await hold('rollup');
      const result: Partial<RollupRunResult> = {};
      return result as RollupRunResult;
    },
    retention: () => Promise.reject(new Error('unused')),
    sealOpenLog: (): Promise<void> => hold('seal'),
    drain: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

const turns = () => new Promise((resolve) => setImmediate(resolve));

describe('a sharded rollup', () => {
  it('seals one thread at a time, the first one last (inside its rollup)', async () => {
    const log: string[] = [];
    const release = new Map<string, () => void>();
    const backend = shardedIngestBackend([0, 1, 2].map((n) => fakeShard(n, log, release)));
    const done = backend.rollup(1_764_000_000_000, 300_000);
    await turns();
    expect(log).toEqual(['seal1 start']);
    release.get('seal1')!();
    await turns();
    expect(log).toEqual(['seal1 start', 'seal1 end', 'seal2 start']);
    release.get('seal2')!();
    await turns();
    expect(log.at(-1)).toBe('rollup0 start');
    release.get('rollup0')!();
    await done;
    expect(log).toEqual([
      'seal1 start',
      'seal1 end',
      'seal2 start',
      'seal2 end',
      'rollup0 start',
      'rollup0 end',
    ]);
  });
});
