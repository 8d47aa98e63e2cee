/**
 * Child process of the history-blocks crash test: commits reports of a few nodes to a database
 * file in batches (as the ingest thread does, WAL synced before the answer) and seals closed
 * windows into blocks between batches on a fast fake clock, so kills land in report commits and
 * in seal transactions alike. After each commit it tells the parent which markers are durable.
 *
 *   node --import tsx history-crash-child.ts <db path> <first marker>
 */
import { HOST_METRICS } from '../../src/protocol/history-metrics.js';
import { sealTask } from '../../src/store/sqlite/history-blocks.js';
import { MetricsEngine } from '../../src/store/sqlite/metrics-engine.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { metricsWrite } from './metrics-writes.js';

const [path, first] = process.argv.slice(2);
const MEM = HOST_METRICS.indexOf('mem.used');
const store = openSqliteStore(path!, 0);
const db = store.raw;
// Resume the fake clock after the newest report a previous round stored.
const last = db
  .prepare(
    `SELECT max(t) FROM (SELECT max(received_at) AS t FROM metrics_raw
       UNION ALL SELECT max(t_end) FROM metrics_blocks)`,
  )
  .pluck()
  .get() as number | null;
let now = (last ?? Date.UTC(2026, 10, 21)) + 1000;
let marker = Number(first);
const engine = new MetricsEngine(db, () => now);

for (;;) {
  const writes = [];
  const markers: Array<[number, number]> = [];
  for (let i = 0; i < 16; i++) {
    now += 250;
    const node = 1 + (i % 4);
    const w = metricsWrite(node, now, { seq: marker, deadline: Infinity });
    w.host[MEM] = marker;
    markers.push([node, marker]);
    marker++;
    writes.push(w);
  }
  engine.commitBatch(writes);
  process.send?.(markers);
  const seal = sealTask(db, now, 60_000);
  while (!seal.next().done);
}
