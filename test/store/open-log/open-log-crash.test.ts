import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeRecord, SAMPLE } from '../../../src/store/history-blocks/open-log-record.js';
import { OpenLogFile } from '../../../src/store/sqlite/open-log.js';
import { tempHome } from '../../support/build-app.js';

const child = new URL('../../support/open-log-crash-child.ts', import.meta.url).pathname;

/** Runs the appending child until it is SIGKILLed after `ms`; returns the markers it acked. */
async function killAfter(path: string, start: number, ms: number): Promise<number[]> {
  const proc = spawn(process.execPath, ['--import', 'tsx', child, path, String(start)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  // Kill only once it has acknowledged something, at a random moment after that.
  await new Promise<void>((resolve) => {
    const check = setInterval(() => {
      if (out.includes('\n')) {
        clearInterval(check);
        setTimeout(resolve, ms);
      }
    }, 5);
  });
  proc.kill('SIGKILL');
  await new Promise((r) => proc.once('exit', r));
  // Only whole lines were printed after their fsync ended; a cut line was never acknowledged.
  return out
    .split('\n')
    .slice(0, -1)
    .flatMap((line) => line.split(',').map(Number));
}

describe('open-block log under SIGKILL', () => {
  it('holds every acknowledged record after kills at random moments', async () => {
    const path = join(tempHome(), 'dash.db-open-0');
    const acked = new Set<number>();
    let start = 1;
    for (let round = 0; round < 5; round++) {
      const got = await killAfter(path, start, 50 + Math.floor(Math.random() * 250));
      expect(got.length).toBeGreaterThan(0);
      for (const m of got) acked.add(m);
      const log = OpenLogFile.open(path, { shard: 0, from: 0 });
      const present = new Set<number>();
      for (const p of log.replayed.payloads) {
        const r = decodeRecord(p);
        expect(r.type).toBe(SAMPLE);
        if (r.type === SAMPLE) {
          expect(r.host).toEqual([r.at, null, r.at * 3]);
          present.add(r.at);
        }
      }
      log.close();
      const lost = [...acked].filter((m) => !present.has(m));
      expect(lost).toEqual([]);
      start = Math.max(...present, ...acked) + 1_000;
    }
  }, 120_000);
});
