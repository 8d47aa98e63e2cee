import { fork } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOST_METRICS } from '../../src/protocol/history-metrics.js';
import { historySource } from '../../src/store/sqlite/history-source.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { tempHome } from '../support/build-app.js';

const CHILD = new URL('../support/history-crash-child.ts', import.meta.url).pathname;
const MEM = HOST_METRICS.indexOf('mem.used');

/**
 * SIGKILL while reports are committed into the open block and closed windows are sealed into
 * blocks: every report acknowledged (committed, WAL synced) is found by history reads after the
 * kill, exactly once, and the database is intact.
 */
describe('history blocks across SIGKILL', () => {
  it('loses no acknowledged report, open or sealed, across kills', async () => {
    const path = join(tempHome(), 'dash.db');
    const acked: Array<[number, number]> = [];
    let marker = 1_000;
    for (let round = 0; round < 3; round++) {
      const child = fork(CHILD, [path, String(marker)], {
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      const target = acked.length + 400 + Math.floor(Math.random() * 400);
      await new Promise<void>((resolve, reject) => {
        child.on('message', (m: Array<[number, number]>) => {
          acked.push(...m);
          if (acked.length >= target) {
            child.kill('SIGKILL');
            resolve();
          }
        });
        child.on('exit', () => resolve());
        child.on('error', reject);
      });
      await new Promise((r) => child.once('exit', r).once('close', r));
      marker = Math.max(...acked.map(([, m]) => m)) + 1_000_000;

      const store = openSqliteStore(path, 0);
      try {
        const integrity = store.raw.pragma('integrity_check', { simple: true });
        expect(integrity).toBe('ok');
        const blocks = store.raw.prepare('SELECT count(*) FROM metrics_blocks').pluck().get();
        expect(blocks).toBeGreaterThan(0);
        const src = historySource(store.raw);
        const found = new Map<string, number>();
        for (const node of [1, 2, 3, 4]) {
          for (const p of src.hostSeries(node, MEM, 0, Number.MAX_SAFE_INTEGER)) {
            const key = `${node}:${p.value}`;
            found.set(key, (found.get(key) ?? 0) + 1);
          }
        }
        const lost = acked.filter(([n, m]) => !found.has(`${n}:${m}`));
        expect(lost).toEqual([]);
        expect([...found.values()].every((c) => c === 1)).toBe(true);
      } finally {
        await store.close();
      }
    }
  }, 180_000);
});
