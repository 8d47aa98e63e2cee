import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestThreadsFor } from '../../src/workers/ingest-backend.js';
import { buildTestApp, tempHome } from '../support/build-app.js';

/** Names of this process's threads that are ingest threads (each names itself `ingest-<shard>`). */
function ingestThreadNames(): string[] {
  const names: string[] = [];
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const name = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      if (/^ingest-\d+$/.test(name)) names.push(name);
    } catch {
      // The thread ended while we listed them.
    }
  }
  return names.sort();
}

describe('ingest thread count', () => {
  it('is one per core, at least one, at most two, unless set', () => {
    expect(ingestThreadsFor(0, 1)).toBe(1);
    expect(ingestThreadsFor(0, 2)).toBe(2);
    expect(ingestThreadsFor(0, 3)).toBe(2);
    expect(ingestThreadsFor(0, 64)).toBe(2);
    expect(ingestThreadsFor(3, 2)).toBe(3);
    expect(ingestThreadsFor(1, 64)).toBe(1);
  });

  it.runIf(process.platform === 'linux')(
    'starts as many ingest threads as DASH_INGEST_THREADS says, each taking reports',
    async () => {
      const before = ingestThreadNames();
      for (const threads of [1, 3]) {
        const path = join(tempHome(), 'dash.db');
        const t = await buildTestApp({
          DASH_DATABASE_URL: `sqlite:${path}`,
          DASH_INGEST_THREADS: String(threads),
        });
        try {
          const started = ingestThreadNames().filter((n) => !before.includes(n));
          expect(started).toEqual(Array.from({ length: threads }, (_, i) => `ingest-${i}`));
        } finally {
          await t.close();
        }
      }
    },
    60_000,
  );
});
