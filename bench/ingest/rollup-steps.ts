/**
 * How long the steps of one rollup task run hold an ingest thread (docs/ingest-performance.md,
 * "Rollup and seal index steps"), alone in one process: `--nodes` nodes with sealed history
 * (24 blocks each) and two open-block logs holding `--seconds` of reports at `--rate` reports/s
 * (about 240 bytes a sample) and one carried projection per node, none indexed yet (as after
 * a rotation, or a minute of the other thread's records). Runs the task step by step, unpaced,
 * and prints the step count, the five longest steps and the total. `--due` makes a 15-minute
 * bucket due, so the run also looks up every node's oldest point (1 run in 15). To compare
 * with another checkout, copy this file there and run it the same way.
 *
 *   npm run bench:rollup-steps [-- --nodes 10000 --rate 3000 --seconds 60 --due]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { encodeProjection, encodeSample } from '../../src/store/history-blocks/open-log-record.js';
import { OpenLogFile } from '../../src/store/sqlite/open-log.js';
import { OpenLogReaders, openLogPath } from '../../src/store/sqlite/open-logs.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { rollupTask } from '../../src/store/sqlite/rollup-task.js';

const { values: args } = parseArgs({
  options: {
    nodes: { type: 'string', default: '10000' },
    rate: { type: 'string', default: '3000' },
    seconds: { type: 'string', default: '60' },
    due: { type: 'boolean', default: false },
  },
});
const NODES = Number(args.nodes);
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const HOUR = 3_600_000;
const QUARTER = 900_000;
const SEAL_MS = 300_000;
const NOW = Date.UTC(2026, 10, 21, 10, 7, 0);

const dir = mkdtempSync(join(tmpdir(), 'dash-rollup-steps-'));
const path = join(dir, 'dash.db');
const store = openSqliteStore(path, NOW);
const db = store.raw;

// Sealed history three hours back (placeholder bytes: no run below decodes them).
const insert = db.prepare(
  'INSERT INTO metrics_blocks (node_id, t_start, t_end, count, data) VALUES (?, ?, ?, ?, ?)',
);
const blob = Buffer.alloc(300, 7);
db.transaction(() => {
  for (let node = 1; node <= NODES; node++) {
    for (let b = 0; b < 24; b++) {
      const start = NOW - 3 * HOUR + b * SEAL_MS;
      insert.run(node, start, start + SEAL_MS - 1000, 90, blob);
    }
  }
})();
// Compaction done and the rollups up to date, but for one bucket with --due.
const quarter = Math.floor((NOW - 70_000) / QUARTER) * QUARTER;
db.prepare(
  `INSERT OR REPLACE INTO metrics_jobs (name, watermark)
   VALUES ('rollup_15m', ?), ('rollup_1h', ?), ('block_compaction', ?)`,
).run(
  args.due ? quarter - QUARTER : quarter,
  Math.floor(quarter / HOUR) * HOUR,
  Math.floor(NOW / HOUR) * HOUR,
);

// Two logs, nodes split by id as between the ingest threads.
const devices = Uint8Array.from({ length: 160 }, (_, i) => (i * 37) & 255);
const host = Array.from({ length: 22 }, (_, i) => (i % 5 === 4 ? null : 100_000 + i * 997));
for (const shard of [0, 1]) {
  const log = OpenLogFile.open(openLogPath(path, shard), { shard, from: 0 });
  const mine = Array.from({ length: NODES }, (_, i) => i + 1).filter((n) => n % 2 === shard);
  log.append(
    mine.map((node) =>
      encodeProjection({
        node,
        at: NOW - SECONDS * 1000,
        reportedAt: NOW - SECONDS * 1000,
        runtimeJson: JSON.stringify({ node, pad: Math.random().toString(36).repeat(20) }),
        smartJson: null,
        thermalJson: null,
        pressureJson: null,
      }),
    ),
  );
  const samples = Math.round((RATE / 2) * SECONDS);
  for (let i = 0; i < samples; i += 64) {
    const batch: Buffer[] = [];
    for (let j = i; j < Math.min(samples, i + 64); j++) {
      const at = NOW - SECONDS * 1000 + Math.floor((j * 1000) / (RATE / 2));
      batch.push(encodeSample({ node: mine[j % mine.length]!, at, host, devices }));
    }
    log.append(batch);
  }
  log.close();
}

const readers = new OpenLogReaders(path);
const steps: number[] = [];
const task = rollupTask(db, NOW, SEAL_MS, readers);
for (;;) {
  const t0 = performance.now();
  const r = task.next();
  steps.push(performance.now() - t0);
  if (r.done) break;
}
const longest = [...steps].sort((a, b) => b - a).slice(0, 5);
const total = steps.reduce((a, b) => a + b, 0);
console.log(
  `rollup of ${NODES} nodes, ${SECONDS} s of ${RATE}/s unindexed in two logs${args.due ? ', a bucket due' : ''}: ` +
    `${steps.length} steps, longest ${longest.map((ms) => ms.toFixed(1)).join(' / ')} ms, ` +
    `total ${total.toFixed(0)} ms (load average ${loadavg()[0]!.toFixed(2)})`,
);
readers.close();
await store.close();
rmSync(dir, { recursive: true, force: true });
