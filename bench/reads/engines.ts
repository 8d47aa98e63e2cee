/**
 * The same reads on SQLite and PostgreSQL in one run (issue 23: "the same history and front reads
 * as on SQLite within 2× their SQLite time"). Run: npm run bench:reads-engines
 *
 * Both engines get the same data: one node with 8 days of 3 s reports (written through each
 * engine's metrics writer, rolled up by each engine's rollup job) plus `BENCH_FRONT_NODES` nodes
 * that report once through the full ingest path. Then, interleaving the engines read by read so
 * load changes hit both alike, the median of `BENCH_READS` reads of:
 *
 * - history through each engine's HistoryRepo (the store's own cost): 24h (raw), 1w (15 min),
 *   30d (1 h), the 1w and 30d both repeated (series cache warm) and cold (first read of a series);
 * - the same through HTTP (`GET /api/metrics/history`, a full app per engine, admin session);
 * - the front reads: `GET /api/front/metrics` (the dashboard's snapshot) and a node detail page
 *   opening (the requests its page makes: front metrics, uptime, access and the history of
 *   every host chart for 24h, in parallel as the page sends them).
 *
 * Prints each engine's median and the ratio PostgreSQL / SQLite, with the load average.
 *
 *   POSTGRES_TEST_URL=postgres://… BENCH_DAYS=8 BENCH_READS=21 BENCH_FRONT_NODES=200
 */
import { execSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config/load.js';
import { createDeps, type AppDeps } from '../../src/deps.js';
import { buildApp } from '../../src/app.js';
import { silentLogger } from '../../src/platform/logger.js';
import { sqliteKit } from '../../src/kits/sqlite.js';
import { postgresKit } from '../../src/kits/postgres.js';
import type { HistoryQuery, HistoryRepo } from '../../src/store/ports.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/open.js';
import { postgresHistoryReader } from '../../src/store/postgres/history-reader.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/open.js';
import { historyReader } from '../../src/store/sqlite/history-reader.js';
import { agentReport } from '../../test/support/agent-payloads.js';
import { freshSchema } from '../../test/support/postgres.js';
import { seedBothEngines } from '../pg/seed-both-engines.js';

const DAYS = Number(process.env.BENCH_DAYS ?? 8);
const READS = Number(process.env.BENCH_READS ?? 21);
const FRONT_NODES = Number(process.env.BENCH_FRONT_NODES ?? 200);
const DAY = 86_400_000;
// History ends at the last full hour; the apps run on the real clock (the SQLite ingest workers
// check report deadlines against it), so their ranges end just after the seeded data.
const END = Math.floor(Date.now() / 3_600_000) * 3_600_000;
const FIRST = END - DAYS * DAY;
const ROLLUP_AT = END + 60_000;
const PASSWORD = 'bench-admin-password-1';
const ENGINES = ['sqlite', 'postgres'] as const;
type Engine = (typeof ENGINES)[number];

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Side {
  repo: HistoryRepo;
  /** Same store, its own series cache: every read of it is a cold one. */
  coldRepo: () => HistoryRepo;
  app: FastifyInstance;
  deps: AppDeps;
  auth: Record<string, string>;
}

async function openApp(
  engine: Engine,
  lite: SqliteStore,
  litePath: string,
  pgStore: PostgresStore,
  pgUrl: string,
  pgSchema: string,
): Promise<Side> {
  const home = mkdtempSync(join(tmpdir(), `dash-bench-engines-${engine}-`));
  const config = loadConfig({
    DASH_HOME: home,
    DASH_LOG_LEVEL: 'silent',
    DASH_TIMEZONE: 'UTC',
    DASH_ADMIN_PASSWORD: PASSWORD,
    DASH_DATABASE_URL: engine === 'sqlite' ? `sqlite:${litePath}` : pgUrl,
  });
  const kit =
    engine === 'sqlite' ? sqliteKit(lite, litePath) : postgresKit(pgStore, pgUrl, pgSchema);
  const deps = await createDeps(config, { kit, log: silentLogger });
  const app = buildApp(deps);
  await app.ready();
  await deps.adminPassword.ensure(config.adminPassword);
  const session = await deps.auth.login(PASSWORD, 'session');
  // The front nodes report once each through the engine's whole ingest path.
  const body = (seq: number) => Buffer.from(JSON.stringify(agentReport({ seq })));
  await Promise.all(
    Array.from({ length: FRONT_NODES + 1 }, (_, i) =>
      deps.metricsIngest.accept({
        nodeId: i + 1,
        receivedAt: deps.clock.now(),
        body: body(i),
        ip: null,
      }),
    ),
  );
  const repo = engine === 'sqlite' ? historyReader(lite.raw) : postgresHistoryReader(pgStore.pool);
  const coldRepo = () =>
    engine === 'sqlite' ? historyReader(lite.raw) : postgresHistoryReader(pgStore.pool);
  return { repo, coldRepo, app, deps, auth: { authorization: `Bearer ${session.accessToken}` } };
}

/** Runs `fn` READS times per engine, alternating engines, and returns each engine's median. */
async function measure(
  sides: Record<Engine, Side>,
  fn: (side: Side) => Promise<unknown>,
): Promise<Record<Engine, number>> {
  const times: Record<Engine, number[]> = { sqlite: [], postgres: [] };
  for (const e of ENGINES) await fn(sides[e]); // warm-up
  for (let k = 0; k < READS; k++) {
    for (const e of k % 2 === 0 ? ENGINES : [...ENGINES].reverse()) {
      const t = performance.now();
      await fn(sides[e]);
      times[e].push(performance.now() - t);
    }
  }
  return { sqlite: median(times.sqlite), postgres: median(times.postgres) };
}

function row(label: string, m: Record<Engine, number>): void {
  const ratio = m.postgres / m.sqlite;
  console.log(
    `  ${label.padEnd(34)} sqlite ${m.sqlite.toFixed(3).padStart(8)} ms   postgres ${m.postgres
      .toFixed(3)
      .padStart(8)} ms   ratio ${ratio.toFixed(2).padStart(5)}×${ratio > 2 ? '  OVER 2×' : ''}`,
  );
}

const RANGES: Array<[string, number, number, HistoryQuery['source']]> = [
  ['24h', DAY, 120_000, 'raw'],
  ['1w', 7 * DAY, 900_000, '15m'],
  ['30d', 30 * DAY, 3_600_000, '1h'],
];

async function inject(side: Side, url: string): Promise<void> {
  const res = await side.app.inject({ method: 'GET', url, headers: side.auth });
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
}

/** The requests the node detail page makes when it opens (24 h, every host chart's series). */
const DETAIL_METRICS = [
  'cpu.usage_ratio',
  'cpu.iowait_ratio',
  'cpu.steal_ratio',
  'cpu.load1',
  'cpu.load5',
  'cpu.load15',
  'mem.used_ratio',
  'mem.used',
  'net.recv_bps',
  'net.sent_bps',
  'conn.tcp',
  'conn.udp',
  'proc.count',
];

async function run(): Promise<void> {
  console.log(`machine: ${execSync('nproc').toString().trim()} cores; load ${load()}`);
  const schema = await freshSchema();
  const dir = mkdtempSync(join(tmpdir(), 'dash-bench-engines-'));
  const litePath = join(dir, 'dash.db');
  const lite = openSqliteStore(litePath, FIRST);
  const pgStore = await openPostgresStore(schema.url, FIRST);
  const sides: Partial<Record<Engine, Side>> = {};
  try {
    const t0 = performance.now();
    for (const sql of [
      `INSERT INTO nodes (id, name, secret_enc, is_guest_visible, created_at, updated_at)
       VALUES (1, 'history', 'x', TRUE, 0, 0)`,
    ]) {
      lite.raw.prepare(sql).run();
      await pgStore.pool.query(sql);
    }
    for (let i = 0; i < FRONT_NODES; i++) {
      const sql = `INSERT INTO nodes (id, name, secret_enc, is_guest_visible, created_at, updated_at)
                   VALUES (${i + 2}, 'front-${i}', 'x', TRUE, 0, 0)`;
      lite.raw.prepare(sql).run();
      await pgStore.pool.query(sql);
    }
    await pgStore.pool.query(`SELECT setval('nodes_id_seq', ${FRONT_NODES + 2})`).catch(() => {});
    // The same 8 days of one node's reports into both engines, both rolled up.
    await seedBothEngines(lite, pgStore, FIRST, END, ROLLUP_AT);
    // The seeding writes carry no rendered view; node 1's current state comes from a real report.
    lite.raw.prepare('DELETE FROM node_current WHERE node_id = 1').run();
    await pgStore.pool.query('DELETE FROM node_current WHERE node_id = 1');
    console.log(
      `seeded ${DAYS} days of 3 s reports for one node on both engines in ${(
        (performance.now() - t0) /
        1000
      ).toFixed(1)} s; ${READS} reads per figure, engines alternating`,
    );
    sides.sqlite = await openApp('sqlite', lite, litePath, pgStore, schema.url, schema.schema);
    sides.postgres = await openApp('postgres', lite, litePath, pgStore, schema.url, schema.schema);
    const both = sides as Record<Engine, Side>;

    console.log(`history through the HistoryRepo (load ${load()})`);
    for (const [name, windowMs, stepMs, source] of RANGES) {
      const q: HistoryQuery = {
        nodeId: 1,
        metric: 'cpu.usage_ratio',
        source,
        from: END - windowMs,
        to: END,
        stepMs,
        agg: 'avg',
      };
      row(`${name} (${source})`, await measure(both, (s) => s.repo.points(q)));
      if (source !== 'raw') {
        row(`${name} (${source}), cold cache`, await measure(both, (s) => s.coldRepo().points(q)));
      }
    }
    console.log(`history through HTTP, GET /api/metrics/history (load ${load()})`);
    for (const range of ['24h', '1w', '30d']) {
      row(
        range,
        await measure(both, (s) =>
          inject(s, `/api/metrics/history?server_id=1&metric=cpu.usage_ratio&range=${range}`),
        ),
      );
    }
    console.log(`front reads (load ${load()})`);
    row(
      `GET /api/front/metrics (${FRONT_NODES + 1} nodes)`,
      await measure(both, (s) => inject(s, '/api/front/metrics')),
    );
    for (const range of ['24h', '1w']) {
      row(
        `node detail page, ${range}`,
        await measure(both, (s) =>
          Promise.all([
            inject(s, '/api/front/metrics'),
            inject(s, '/api/metrics/uptime'),
            inject(s, '/api/statistics/access'),
            ...DETAIL_METRICS.map((m) =>
              inject(s, `/api/metrics/history?server_id=1&metric=${m}&range=${range}`),
            ),
          ]),
        ),
      );
    }
    console.log(`done (load ${load()})`);
  } finally {
    for (const s of Object.values(sides)) {
      await s.app.close();
      await s.deps.shutdown();
    }
    await lite.close().catch(() => {});
    await pgStore.close().catch(() => {});
    await schema.drop();
  }
}

await run();
