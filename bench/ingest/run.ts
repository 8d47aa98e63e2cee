/**
 * Ingest benchmark: simulated nodes post realistic reports to a running Dash over loopback.
 * In the same run, a bare node:http server that only reads and JSON.parses the same bodies is
 * measured as the baseline. Prints reports/s, p50/p99 latency, the ratio to the baseline,
 * server RSS and stored bytes per report, then each target of issue 21 with its measured value,
 * its ratio to the baseline where it has one, and PASS/MISS. The load average is printed at the
 * start and the end: the machine may be shared, so compare ratios of the same run.
 *
 *   npm run bench:ingest [-- --nodes 10000 --rate 3000 --open 15 --sat 8 --connections 256]
 *   npm run bench:ingest -- --gzip     every body gzip-encoded (Content-Encoding: gzip)
 *   npm run bench:ingest -- --seal-interval 1m --open 130   Dash seals history every minute
 *     (history_seal_interval), so the open loop holds two whole seal periods: the disk line is
 *     then a steady state with every seal's writes in it (at 5 minutes, use --open 310 or more);
 *     the bench prints the writes by source and how many seals fell in the window
 *   npm run bench:ingest -- --commit-delay 0ms   Dash's ingest_commit_delay (default its own)
 *   npm run bench:ingest -- --prefill-traffic-hours 24   a day of 5-minute traffic facts stored
 *     for every node and interface first (SQLite), as a server that has run a day has
 *   npm run bench:ingest -- --only startup,rss   only the phases these targets need
 *     (latency, rss, disk, cpu, saturation, startup); --prebuilt skips the build
 *   npm run bench:ingest:pg [-- --database postgres://… --instances 2]
 *       Dash on PostgreSQL (a fresh schema of that server per run, dropped at the end), with
 *       `--instances N` Dash processes on it; the load goes round-robin over them, request by
 *       request (a load balancer without sticky sessions), and the baseline runs as N servers
 *       the same way. The rate defaults to the nodes reporting every 3 s there.
 *
 * Diagnosis: `-- --profile DIR` writes V8 CPU profiles of every Dash thread; BENCH_DASH_FLAGS
 * passes node flags to Dash (e.g. "--trace-gc") and BENCH_DASH_STDOUT=1 shows its stdout.
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { LoadCommand, LoadResult } from './load.js';
import { seedNodes } from '../../test/support/seed-home.js';
import { prefillBeforeRun } from './traffic-prefill.js';
import { printTargets, type TargetFigures } from './targets.js';
import { sealLeftovers, sealedBytes, storedBytes, storedReports, tableBytes } from './sqlite.js';
import {
  cpuPerReport,
  outsideDashCpu,
  rssMb,
  threadCpu,
  threadsCpu,
  threadWritten,
  writtenBytes,
  writtenPerReport,
} from './proc-stats.js';
import { benchSchema, type BenchSchema } from './postgres.js';
import {
  freePort,
  measureStartup,
  spawnDash,
  startBaselines,
  stopDash,
  waitForHttp,
} from './dash-process.js';
import { logIoBreakdown, scrapeLogIo } from './log-io.js';

const { values: args } = parseArgs({
  options: {
    nodes: { type: 'string', default: '10000' },
    /** Reports/s of the open loop: 3,000 on SQLite, every node every 3 s on PostgreSQL. */
    rate: { type: 'string' },
    /** A PostgreSQL server URL: Dash runs on a fresh schema of it instead of a SQLite file. */
    database: { type: 'string' },
    /** Dash processes on the one database (PostgreSQL only), load spread round-robin. */
    instances: { type: 'string', default: '1' },
    open: { type: 'string', default: '15' },
    sat: { type: 'string', default: '8' },
    connections: { type: 'string', default: '256' },
    keep: { type: 'boolean', default: false },
    gzip: { type: 'boolean', default: false },
    /** Writes V8 CPU profiles of the Dash process (all threads) into this directory. */
    profile: { type: 'string' },
    /** Only the phases these targets need, e.g. `startup,rss` (names in TARGET_PHASES). */
    only: { type: 'string' },
    /** Use dist/ as it is (skip the build). */
    prebuilt: { type: 'boolean', default: false },
    /** Dash's history_seal_interval (e.g. 1m): seals inside a shorter open loop. */
    'seal-interval': { type: 'string' },
    /** Dash's ingest_commit_delay (e.g. 0ms, 10ms). */
    'commit-delay': { type: 'string' },
    /** Hours of traffic facts stored first (SQLite; bench/ingest/traffic-prefill.ts). */
    'prefill-traffic-hours': { type: 'string', default: '0' },
  },
});
const NODES = Number(args.nodes);
const PG_URL = args.database;
const INSTANCES = Number(args.instances);
if (!Number.isInteger(INSTANCES) || INSTANCES < 1) throw new Error('--instances must be ≥ 1');
if (INSTANCES > 1 && !PG_URL) throw new Error('--instances needs --database postgres://…');
if (PG_URL && !/^postgres(ql)?:\/\//.test(PG_URL))
  throw new Error('--database must be postgres://…');
const RATE = args.rate ? Number(args.rate) : PG_URL ? Math.round(NODES / 3) : 3000;
const OPEN_SECONDS = Number(args.open);
const PREFILL_TRAFFIC_H = Number(args['prefill-traffic-hours']);
if (PREFILL_TRAFFIC_H > 0 && PG_URL) throw new Error('--prefill-traffic-hours is for SQLite');
const SAT_SECONDS = Number(args.sat);
const CONNECTIONS = Number(args.connections);
const root = new URL('../../', import.meta.url).pathname;
const TSX = ['--import', 'tsx'];
// Dash reads its settings from the environment it inherits (spawnDash).
if (args['seal-interval']) process.env.DASH_HISTORY_SEAL_INTERVAL = args['seal-interval'];
if (args['commit-delay']) process.env.DASH_INGEST_COMMIT_DELAY = args['commit-delay'];

/**
 * Runs a load phase in the generator process while sampling the servers' RSS: the peak of the
 * largest process (the per-process limit) and of their sum.
 */
async function load(
  gen: ChildProcess,
  serverPids: number | readonly number[],
  cmd: LoadCommand,
): Promise<LoadResult & { rssMaxMb: number; rssSumMaxMb: number }> {
  const pids = typeof serverPids === 'number' ? [serverPids] : serverPids;
  let rssMaxMb = 0;
  let rssSumMaxMb = 0;
  const sample = () => {
    const each = pids.map(rssMb);
    rssMaxMb = Math.max(rssMaxMb, ...each);
    rssSumMaxMb = Math.max(
      rssSumMaxMb,
      each.reduce((a, b) => a + b, 0),
    );
  };
  sample();
  const sampler = setInterval(sample, 200);
  try {
    const result = await new Promise<LoadResult>((resolve, reject) => {
      gen.once('message', (m: LoadResult | { error: string }) =>
        'error' in m ? reject(new Error(m.error)) : resolve(m),
      );
      gen.send(cmd);
    });
    sample();
    return { ...result, rssMaxMb, rssSumMaxMb };
  } finally {
    clearInterval(sampler);
  }
}

const fmt = (n: number, d = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

function line(label: string, r: LoadResult & { rssMaxMb?: number; rssSumMaxMb?: number }): string {
  const errs = Object.entries(r.errors);
  return (
    `${label.padEnd(30)} ${fmt(r.perSecond).padStart(7)} reports/s  p50 ${fmt(r.p50, 2).padStart(7)} ms` +
    `  p99 ${fmt(r.p99, 2).padStart(7)} ms  max ${fmt(r.max, 1).padStart(7)} ms  ok ${fmt(r.ok)}/${fmt(r.sent)}` +
    (errs.length ? `  errors ${errs.map(([k, v]) => `${k}×${v}`).join(' ')}` : '  errors 0') +
    (r.rssMaxMb !== undefined ? `  RSS max ${fmt(r.rssMaxMb)} MB` : '') +
    (INSTANCES > 1 && r.rssSumMaxMb !== undefined ? ` (sum ${fmt(r.rssSumMaxMb)} MB)` : '')
  );
}

const load1 = () => fmt(loadavg()[0]!, 2);

/** What each `--only` name measures: the phases it needs. */
const TARGET_PHASES = {
  latency: ['baseOpen', 'open'],
  rss: ['open'],
  disk: ['open'],
  cpu: ['baseSat', 'sat'],
  saturation: ['baseSat', 'sat'],
  startup: ['startup'],
} as const;
type Phase = (typeof TARGET_PHASES)[keyof typeof TARGET_PHASES][number];

function phasesOf(only: string | undefined): Set<Phase> {
  const names = only ? only.split(',').map((n) => n.trim()) : Object.keys(TARGET_PHASES);
  const phases = new Set<Phase>();
  for (const name of names) {
    if (!(name in TARGET_PHASES))
      throw new Error(`--only: unknown target ${name} (${Object.keys(TARGET_PHASES).join(', ')})`);
    for (const p of TARGET_PHASES[name as keyof typeof TARGET_PHASES]) phases.add(p);
  }
  return phases;
}

async function main(): Promise<void> {
  const phases = phasesOf(args.only);
  const home = mkdtempSync(join(tmpdir(), 'dash-bench-'));
  const dbPath = join(home, 'dash.db');
  const started = performance.now();
  const loadAtStart = load1();
  const where = PG_URL
    ? `PostgreSQL (${new URL(PG_URL).host}), ${INSTANCES} instance${INSTANCES > 1 ? 's' : ''}`
    : 'SQLite';
  console.log(
    `ingest benchmark on ${where}: ${NODES} nodes, open loop ${RATE}/s for ${OPEN_SECONDS}s, saturation ${SAT_SECONDS}s × ${CONNECTIONS} connections${args.gzip ? ', gzip bodies' : ''}; ` +
      `phases ${[...phases].join(', ')}; history_seal_interval ${process.env.DASH_HISTORY_SEAL_INTERVAL ?? '5m (default)'}, ` +
      `ingest_commit_delay ${process.env.DASH_INGEST_COMMIT_DELAY ?? 'default'}; load average ${loadAtStart}`,
  );
  // Measure what ships: the compiled build, not the TypeScript sources through a loader.
  if (!args.prebuilt) {
    const build = spawnSync('npm', ['run', '-s', 'build:server'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  let db: BenchSchema | undefined;
  // Every instance gets a home of its own with the same data key (docs/postgresql.md).
  const homes = [home];
  let secrets: string[];
  if (PG_URL) {
    db = await benchSchema(PG_URL);
    secrets = await db.seed(home, NODES);
    for (let i = 1; i < INSTANCES; i++) {
      const other = mkdtempSync(join(tmpdir(), 'dash-bench-'));
      mkdirSync(join(other, 'secrets'), { mode: 0o700 });
      copyFileSync(join(home, 'secrets', 'data.key'), join(other, 'secrets', 'data.key'));
      homes.push(other);
    }
  } else {
    secrets = await seedNodes(home, NODES);
    if (PREFILL_TRAFFIC_H > 0) prefillBeforeRun(dbPath, NODES, PREFILL_TRAFFIC_H);
  }
  const gen = fork(join(root, 'bench/ingest/load.ts'), [], { execArgv: TSX, stdio: 'inherit' });
  const children: ChildProcess[] = [gen];
  let dashes: ChildProcess[] = [];
  const figures: TargetFigures = {
    title: PG_URL
      ? `issues 21 and 23, PostgreSQL, ${INSTANCES} instance${INSTANCES > 1 ? 's' : ''}`
      : 'issue 21',
    loadAverage: '',
    diskLabel: PG_URL ? 'PostgreSQL WAL' : undefined,
    nodes: NODES,
    rate: RATE,
    instances: INSTANCES,
  };
  try {
    // Baseline: bare node:http + JSON.parse, same bodies, same client, same machine, as many
    // servers as Dash instances.
    let baseSat: Awaited<ReturnType<typeof load>> | undefined;
    let baseOpen: Awaited<ReturnType<typeof load>> | undefined;
    let baseCpu = '';
    if (phases.has('baseSat') || phases.has('baseOpen')) {
      const base = await startBaselines(INSTANCES);
      children.push(...base.procs);
      const basePids = base.procs.map((p) => p.pid!);
      if (phases.has('baseSat')) {
        const baseCpu0 = [threadsCpu(basePids), threadCpu(gen.pid!)] as const;
        baseSat = await load(gen, basePids, {
          ports: base.ports,
          path: '/api/node/metrics',
          gzip: args.gzip,
          secrets,
          mode: 'closed',
          seconds: SAT_SECONDS,
          connections: CONNECTIONS,
        });
        const baseCpuServer = cpuPerReport(baseCpu0[0], threadsCpu(basePids), baseSat.ok);
        baseCpu = `server ${baseCpuServer.text}; generator ${cpuPerReport(baseCpu0[1], threadCpu(gen.pid!), baseSat.ok).text}`;
        figures.baseCpuUs = baseCpuServer.total;
        figures.baseSatPerSecond = baseSat.perSecond;
      }
      if (phases.has('baseOpen')) {
        // The same open loop against the baseline: what the generator and loopback add to latency.
        baseOpen = await load(gen, basePids, {
          ports: base.ports,
          path: '/api/node/metrics',
          gzip: args.gzip,
          secrets,
          mode: 'open',
          rate: RATE,
          seconds: Math.min(OPEN_SECONDS, 5),
          connections: 256,
        });
        figures.baseOpenP99 = baseOpen.p99;
      }
      for (const b of base.procs) b.kill();
    }

    const ports = await Promise.all(homes.map(() => freePort()));
    const profile = args.profile ? ['--cpu-prof', '--cpu-prof-dir', args.profile] : [];
    const extra = process.env.BENCH_DASH_FLAGS ? process.env.BENCH_DASH_FLAGS.split(' ') : [];
    const spawnedAt = performance.now();
    // The first instance migrates (the schema is already migrated by the seeding) before the
    // others start, as an operator would bring up a cluster.
    dashes = [spawnDash(homes[0]!, ports[0]!, [...profile, ...extra], db?.url)];
    children.push(dashes[0]!);
    await waitForHttp(ports[0]!, '/api/version', 10);
    const coldStart = (performance.now() - spawnedAt) / 1000;
    for (let i = 1; i < homes.length; i++) {
      const d = spawnDash(homes[i]!, ports[i]!, [...profile, ...extra], db?.url);
      dashes.push(d);
      children.push(d);
      await waitForHttp(ports[i]!, '/api/version', 10);
    }
    const pids = dashes.map((d) => d.pid!);
    const pid = pids[0]!;
    const common = {
      ports,
      path: '/api/node/metrics',
      secrets,
      connections: CONNECTIONS,
      gzip: args.gzip,
    };

    // Every node gets a current projection (the startup phase restarts on it).
    const warm = await load(gen, pids, { ...common, mode: 'once' });
    const tableTotal = async () =>
      db
        ? Object.values(await db.tableBytes()).reduce((a, b) => a + b, 0)
        : storedBytes(dbPath).total;
    console.log('');
    if (baseSat) console.log(line('baseline (node:http+JSON.parse)', baseSat));
    if (baseOpen) console.log(line(`baseline open loop ${RATE}/s`, baseOpen));
    console.log(line('dash warm-up (1 report/node)', warm));
    if (phases.has('open')) {
      const before = await tableTotal();
      const cpuBeforeOpen = threadsCpu(pids);
      const outside = outsideDashCpu(gen.pid!, db !== undefined);
      const writtenBeforeOpen = db ? 0 : writtenBytes(pid);
      const threadsBeforeOpen = db ? new Map<string, number>() : threadWritten(pid);
      const walBeforeOpen = await db?.walPosition();
      const ioBeforeOpen = db ? undefined : await scrapeLogIo(ports[0]!);
      const open = await load(gen, pids, {
        ...common,
        mode: 'open',
        rate: RATE,
        seconds: OPEN_SECONDS,
        connections: 256,
      });
      // On PostgreSQL the database's writes are the server's WAL (the whole cluster's: other
      // sessions on a shared server count too) and its table files, written later by checkpoints.
      const openWritten =
        (db ? await db.walSince(walBeforeOpen!) : writtenBytes(pid) - writtenBeforeOpen) /
        Math.max(1, open.ok);
      const openCpu = cpuPerReport(cpuBeforeOpen, threadsCpu(pids), open.ok);
      const afterOpen = await tableTotal();
      const openThreads = db
        ? ''
        : writtenPerReport(threadsBeforeOpen, threadWritten(pid), open.ok);
      console.log(line(`dash open loop ${RATE}/s`, open));
      console.log(`open loop p99 by second (ms): ${open.p99BySecond.map((v) => fmt(v)).join(' ')}`);
      if (pids.length > 1) {
        const split = open.okByServer.map((n, i) => `${String.fromCharCode(65 + i)} ${fmt(n)}`);
        console.log(`open loop answered by instance: ${split.join(', ')}`);
      }
      console.log(`CPU per report, dash open loop: server ${openCpu.text}`);
      console.log(`CPU per report, open loop, outside Dash: ${outside(open.ok)}`);
      if (db) {
        console.log(
          `PostgreSQL WAL per report, open loop (whole server, other sessions included): ${fmt(openWritten / 1024, 2)} KiB`,
        );
      } else {
        console.log(`disk writes per report, open loop: ${fmt(openWritten / 1024, 2)} KiB`);
        // By thread: the ingest threads write history, projections and traffic counters (and
        // run most checkpoints); the main thread writes alerts and sessions.
        console.log(`  by thread: ${openThreads}`);
        // The ingest threads send their counters about once a second: wait for the last ones.
        await new Promise((r) => setTimeout(r, 1500));
        const ioAfter = await scrapeLogIo(ports[0]!);
        console.log(logIoBreakdown(ioBeforeOpen!, ioAfter, open.ok));
      }
      const perReport = (afterOpen - before) / Math.max(1, open.ok);
      console.log(
        `stored bytes per report (growth during the open loop, all tables and indexes${db ? '' : ' and open-block logs'}): ${fmt(perReport, 1)} (target ≤ 400)`,
      );
      Object.assign(figures, {
        openP99: open.p99,
        worstSecondP99: Math.max(0, ...open.p99BySecond),
        openErrors: open.sent - open.ok,
        openSent: open.sent,
        openPerSecond: open.perSecond,
        rssMb: open.rssMaxMb,
        diskKiB: openWritten / 1024,
      });
    }
    if (phases.has('sat')) {
      const cpuBeforeSat = threadsCpu(pids);
      const genBeforeSat = threadCpu(gen.pid!);
      const writtenBeforeSat = db ? 0 : writtenBytes(pid);
      const threadsBeforeSat = db ? new Map<string, number>() : threadWritten(pid);
      const walBeforeSat = await db?.walPosition();
      const sat = await load(gen, pids, { ...common, mode: 'closed', seconds: SAT_SECONDS });
      const satWritten =
        (db ? await db.walSince(walBeforeSat!) : writtenBytes(pid) - writtenBeforeSat) /
        Math.max(1, sat.ok);
      const satThreads = db ? '' : writtenPerReport(threadsBeforeSat, threadWritten(pid), sat.ok);
      const satCpuServer = cpuPerReport(cpuBeforeSat, threadsCpu(pids), sat.ok);
      const satCpu = `server ${satCpuServer.text}; generator ${cpuPerReport(genBeforeSat, threadCpu(gen.pid!), sat.ok).text}`;
      console.log(line('dash saturation', sat));
      console.log(`CPU per report, baseline: ${baseCpu}`);
      console.log(`CPU per report, dash saturation: ${satCpu}`);
      if (db) {
        console.log(
          `PostgreSQL WAL per report, saturation (whole server, other sessions included): ${fmt(satWritten / 1024, 2)} KiB`,
        );
      } else {
        console.log(`disk writes per report, saturation: ${fmt(satWritten / 1024, 2)} KiB`);
        console.log(`  by thread: ${satThreads}`);
      }
      Object.assign(figures, {
        cpuUs: satCpuServer.total,
        satPerSecond: sat.perSecond,
        satRssMb: sat.rssMaxMb,
      });
    }
    // SQLite keeps the newest reports in the open-block logs until a seal; a graceful stop seals
    // them all into blocks and node_current, so the tables hold every report before they are
    // read (a killed server would leave them in the logs and the tables "over 0 reports").
    let stopMs: number | undefined;
    if (!db) {
      const t0 = performance.now();
      await Promise.all(dashes.map((d) => stopDash(d, true)));
      stopMs = performance.now() - t0;
      const left = sealLeftovers(dbPath);
      if (left > 0) {
        console.log(
          `the stop left ${fmt(left)} reports in the open-block logs (cut short after ${fmt(stopMs)} ms); sealed them here`,
        );
      }
    }
    const rows = db ? await db.rows() : storedReports(dbPath);
    const total = await tableTotal();
    const tables = db ? await db.tableBytes() : tableBytes(dbPath);
    // History grows with every report; the current projection and the device dictionary are
    // a fixed cost per node, so a short run says little about them per report.
    const PER_NODE = ['node_current', 'metric_devices', 'sqlite_autoindex_metric_devices_1'];
    const perNode = PER_NODE.reduce((n, t) => n + (tables[t] ?? 0), 0);
    const history = Object.entries(tables)
      .filter(([t]) => t.startsWith('metrics_'))
      .reduce((n, [, v]) => n + v, 0);
    console.log(
      `stored history per report (metrics_* tables): ${fmt(history / Math.max(1, rows), 1)} bytes over ${fmt(rows)} reports; ` +
        `per-node fixed (current projection, devices): ${fmt(perNode / NODES / 1024, 1)} KiB/node; ` +
        `database total ${fmt(total / 1048576, 1)} MiB`,
    );
    console.log(
      `  by table (bytes per report): ${Object.entries(tables)
        .filter(([, v]) => v >= Math.max(4096 * 4, total / 100))
        .map(([k, v]) => `${k} ${fmt(v / Math.max(1, rows), 1)}`)
        .join(', ')}`,
    );
    await Promise.all(dashes.map((d) => stopDash(d, Boolean(args.profile))));
    if (!db) {
      // Raw history as it stays on disk: the blocks the stop sealed (and any raw rows, sealed
      // here as the rollup job would).
      const sealed = sealedBytes(dbPath);
      console.log(
        `stored raw history per report once sealed into blocks: ${fmt(sealed.bytes / Math.max(1, sealed.points), 1)} bytes ` +
          `over ${fmt(sealed.points)} reports in ${fmt(sealed.blocks)} blocks (target ≤ 60, stretch ≤ 30); ` +
          `graceful stop (seals the open-block logs) took ${fmt(stopMs ?? 0)} ms`,
      );
    }
    if (phases.has('startup')) {
      // A restart on the run's database: every node has a current projection and history.
      const restart = await measureStartup(home, secrets[0]!, args.profile, db?.url);
      console.log(
        `startup: cold (no reports yet) ${fmt(coldStart, 2)} s to the API; restart with ${NODES} nodes ` +
          `${fmt(restart.api, 2)} s to the API, ${fmt(restart.ingest, 2)} s to a stored report ` +
          `(CPU ${fmt(restart.cpu, 2)} s all threads, ${fmt(restart.mainCpu, 2)} s the HTTP thread; load average ${load1()})`,
      );
      figures.startupSeconds = restart.ingest;
    }
    console.log('');
    figures.loadAverage = `${loadAtStart} at start, ${load1()} at end`;
    printTargets(figures);
    console.log(`benchmark took ${fmt((performance.now() - started) / 1000, 1)} s`);
  } finally {
    for (const d of dashes) await stopDash(d, Boolean(args.profile));
    for (const c of children) c.kill('SIGKILL');
    await db?.end(args.keep);
    if (!args.keep) {
      for (const h of homes) rmSync(h, { recursive: true, force: true });
    } else {
      console.log(`kept ${homes.join(', ')}${db ? ` and schema ${db.schema}` : ''}`);
    }
  }
}

await main();
