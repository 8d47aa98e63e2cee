/**
 * The PostgreSQL metrics side against SQLite's (docs/postgresql.md "Sizing"):
 *
 * 1. Ingest: 1,000 nodes send realistic reports (test/support/agent-payloads.ts) through the
 *    PostgreSQL ingest backend, a whole round of the fleet handed over at once, `ROUNDS` times;
 *    prints reports/s (each answered after its COMMIT).
 * 2. History reads: one node with 8 days of 3 s reports, rolled up, on both engines; median
 *    time of the HistoryRepo read the history route makes for 24h (raw), 1w (15 m) and 30d (1 h).
 *
 *   POSTGRES_TEST_URL=postgres://… npm run bench:pg
 *   BENCH_NODES=1000 BENCH_ROUNDS=20 BENCH_DAYS=8
 */
import { execSync } from 'node:child_process';
import { loadavg } from 'node:os';
import type { HistoryQuery, HistoryRepo } from '../../src/store/ports.js';
import { openPostgresStore } from '../../src/store/postgres/open.js';
import { postgresHistoryReader } from '../../src/store/postgres/history-reader.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { historyReader } from '../../src/store/sqlite/history-reader.js';
import { createPgMetricsSide } from '../../src/workers/pg-metrics-side.js';
import { ReportPreparer } from '../../src/domain/ingest/ingest-core.js';
import { nodeReportDecoder } from '../../src/protocol/decode-node-report.js';
import { agentReport } from '../../test/support/agent-payloads.js';
import { freshSchema } from '../../test/support/postgres.js';
import { seedBothEngines } from './seed-both-engines.js';

const NODES = Number(process.env.BENCH_NODES ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const DAYS = Number(process.env.BENCH_DAYS ?? 8);
const DAY = 86_400_000;
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function ingest(url: string): Promise<void> {
  const start = Date.now();
  const store = await openPostgresStore(url, start, { max: 4 });
  try {
    await store.pool.query(
      `INSERT INTO nodes (id, name, secret_enc, created_at, updated_at)
       SELECT g, 'n' || g, 'x', 0, 0 FROM generate_series(1, $1::int) g`,
      [NODES],
    );
    let now = start;
    const side = createPgMetricsSide(store.pool, {
      now: () => now,
      staleAfterSec: 15,
      partitions: store.partitions,
    });
    const bodies = Array.from({ length: 16 }, (_, seq) =>
      Buffer.from(JSON.stringify(agentReport({ seq }))),
    );
    const round = async (r: number) => {
      now = Date.now();
      const answers = await Promise.all(
        Array.from({ length: NODES }, (_, i) =>
          side.ingestBackend.process({
            nodeId: i + 1,
            receivedAt: now + r,
            deadline: now + r + 5000,
            body: bodies[(i + r + bodies.length) % bodies.length],
            ip: '10.0.0.1',
          }),
        ),
      );
      const failed = answers.filter((a) => !a.ok).length;
      if (failed > 0)
        throw new Error(`${failed} reports failed: ${JSON.stringify(answers.find((a) => !a.ok))}`);
    };
    await round(-1);
    // The part of each report's cost that stays on the calling (HTTP) thread.
    const preparer = new ReportPreparer(
      nodeReportDecoder(),
      () => now,
      15,
      () => undefined,
    );
    const p0 = performance.now();
    for (let r = 0; r < 3; r++) {
      preparer.prepareBatch(
        Array.from({ length: NODES }, (_, i) => ({
          nodeId: i + 1,
          receivedAt: now,
          deadline: now + 5000,
          body: bodies[i % bodies.length],
          ip: null,
        })),
      );
    }
    const prepareUs = ((performance.now() - p0) * 1000) / (3 * NODES);
    console.log(
      `prepare (decode, rules, render) alone: ${prepareUs.toFixed(0)} µs/report (load ${load()})`,
    );
    const t0 = performance.now();
    for (let r = 0; r < ROUNDS; r++) await round(r);
    const secs = (performance.now() - t0) / 1000;
    console.log(
      `ingest: ${NODES} nodes x ${ROUNDS} rounds = ${NODES * ROUNDS} reports in ${secs.toFixed(2)} s: ` +
        `${Math.round((NODES * ROUNDS) / secs)} reports/s (load ${load()})`,
    );
    await side.ingestBackend.close();
  } finally {
    await store.close();
  }
}

async function reads(url: string): Promise<void> {
  const end = Date.UTC(2026, 10, 21, 0, 0, 0);
  const first = end - DAYS * DAY;
  const pgStore = await openPostgresStore(url, first, { max: 4 });
  const lite = openSqliteStore(':memory:', 0);
  try {
    await seedBothEngines(lite, pgStore, first, end, end + 60_000);
    const readers: Record<string, HistoryRepo> = {
      sqlite: historyReader(lite.raw),
      postgres: postgresHistoryReader(pgStore.pool),
    };
    const ranges: Array<[string, number, number, HistoryQuery['source']]> = [
      ['24h', DAY, 120_000, 'raw'],
      ['1w', 7 * DAY, 900_000, '15m'],
      ['30d', 30 * DAY, 3_600_000, '1h'],
    ];
    for (const [name, windowMs, stepMs, source] of ranges) {
      const line: string[] = [];
      for (const [engine, repo] of Object.entries(readers)) {
        const times: number[] = [];
        for (let k = 0; k < 21; k++) {
          const t = performance.now();
          await repo.points({
            nodeId: 1,
            metric: 'cpu.usage_ratio',
            source,
            from: end - windowMs,
            to: end,
            stepMs,
            agg: 'avg',
          });
          times.push(performance.now() - t);
        }
        line.push(`${engine} ${median(times).toFixed(2)} ms`);
      }
      console.log(`history ${name} (${source}): ${line.join(', ')} (load ${load()})`);
    }
  } finally {
    await lite.close();
    await pgStore.close();
  }
}

console.log(`machine: ${execSync('nproc').toString().trim()} cores; load ${load()}`);
for (const part of process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['ingest', 'reads']) {
  const schema = await freshSchema();
  try {
    if (part === 'ingest') await ingest(schema.url);
    else await reads(schema.url);
  } finally {
    await schema.drop();
  }
}
