import type { MetricsWrite } from '../../src/store/ports.js';
import type { PostgresStore } from '../../src/store/postgres/open.js';
import { PgMetricsEngine } from '../../src/store/postgres/metrics-engine.js';
import { postgresRollup } from '../../src/store/postgres/history-rollup.js';
import type { SqliteStore } from '../../src/store/sqlite/open.js';
import { MetricsEngine } from '../../src/store/sqlite/metrics-engine.js';
import { rollupTask } from '../../src/store/sqlite/rollup-task.js';
import { HOST_METRICS } from '../../src/protocol/history-metrics.js';
import { metricsWrite } from '../../test/support/metrics-writes.js';

/**
 * The same 3 s reports of node 1 from `first` to `end` (a CPU wave, so rollups have something
 * to fold) into both engines, then both rollups at `rollupAt` until caught up, then ANALYZE:
 * the data the engine-comparison benches read.
 */
export async function seedBothEngines(
  lite: Pick<SqliteStore, 'raw'>,
  pgStore: Pick<PostgresStore, 'pool' | 'partitions'>,
  first: number,
  end: number,
  rollupAt: number,
): Promise<void> {
  const template = metricsWrite(1, first, { deadline: Infinity });
  const cpu = HOST_METRICS.indexOf('cpu.usage_ratio');
  const liteEngine = new MetricsEngine(lite.raw, () => 0);
  const pgEngine = new PgMetricsEngine(pgStore.pool, () => 0, pgStore.partitions);
  let batch: MetricsWrite[] = [];
  const flush = async () => {
    liteEngine.commitBatch(batch);
    await pgEngine.commitBatch(batch);
    batch = [];
  };
  for (let at = first, i = 0; at < end; at += 3000, i++) {
    const host = [...template.host];
    host[cpu] = Math.round(5000 + 4000 * Math.sin(i / 97)) / 10_000;
    batch.push({ ...template, receivedAt: at, host });
    if (batch.length === 5000) await flush();
  }
  await flush();
  for (;;) {
    const gen = rollupTask(lite.raw, rollupAt);
    let r = gen.next();
    while (!r.done) r = gen.next();
    const p = await postgresRollup(pgStore.pool, rollupAt);
    if (r.value.buckets === 0 && p.buckets === 0) break;
  }
  await pgStore.pool.query('ANALYZE');
}
