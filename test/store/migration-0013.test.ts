import { afterEach, describe, expect, it } from 'vitest';
import { HOST_METRICS } from '../../src/protocol/history-metrics.js';
import type { MetricsWrite } from '../../src/store/ports.js';
import { historyReader } from '../../src/store/sqlite/history-reader.js';
import { migrateSqlite } from '../../src/store/sqlite/migrate.js';
import type { SqliteStore } from '../../src/store/sqlite/open.js';
import { historySnapshot } from '../support/history-snapshot.js';
import { metricsWrite, openHistoryStore } from '../support/metrics-writes.js';

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 20, 22, 0, 0);

let store: SqliteStore | undefined;
afterEach(async () => store?.close());

/** Puts a database back to the state before 0013: history only in metrics_raw. */
function unapply0013(db: SqliteStore['raw']): void {
  db.exec(`DROP TABLE metrics_blocks; DROP TABLE metrics_block_days;
    DELETE FROM schema_migrations WHERE id = '0013_history_blocks'`);
}

describe('migration 0013_history_blocks', () => {
  it('moves a populated database into blocks and every history read answers the same', async () => {
    const opened = openHistoryStore();
    store = opened.store;
    const db = store.raw;
    // Three nodes, 2 hours around midnight, irregular gaps, a node with a long silence.
    const writes: MetricsWrite[] = [];
    for (let i = 0; i < 2400; i++) {
      for (const node of [1, 2, 3]) {
        if (node === 3 && i > 600 && i < 1800) continue;
        if (node === 2 && i % 17 === 5) continue;
        const w = metricsWrite(node, T0 + i * 3000 + ((i * node * 53) % 29), {
          seq: i + node * 1000,
          deadline: Infinity,
        });
        if (i % 11 === 0) w.host[HOST_METRICS.indexOf('cpu.temp_c')] = null;
        writes.push(w);
      }
    }
    opened.engine.commitBatch(writes);
    const rawBefore = (db.prepare('SELECT count(*) AS n FROM metrics_raw').get() as { n: number })
      .n;
    const now = T0 + 2 * 3_600_000 + 2 * MIN;
    const before = [];
    for (const node of [1, 2, 3]) {
      before.push(await historySnapshot(historyReader(db), node, T0 - MIN, now));
    }

    // Before 0013 history was only raw rows, as now (no block sealed yet); go back to that
    // schema and upgrade.
    unapply0013(db);
    expect(migrateSqlite(db, now).applied).toEqual(['0013_history_blocks']);
    const after = historyReader(db);
    const blocks = db
      .prepare('SELECT count(*) AS n, sum(count) AS points FROM metrics_blocks')
      .get() as { n: number; points: number };
    const raw = (db.prepare('SELECT count(*) AS n FROM metrics_raw').get() as { n: number }).n;
    expect(blocks.points + raw).toBe(rawBefore);
    expect(raw).toBeLessThan(300);
    const days = db.prepare('SELECT sum(points) AS p FROM metrics_block_days').get() as {
      p: number;
    };
    expect(days.p).toBe(blocks.points);
    for (const [i, node] of [1, 2, 3].entries()) {
      expect(await historySnapshot(after, node, T0 - MIN, now)).toEqual(before[i]);
    }
  });
});
