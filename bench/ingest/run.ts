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
 *   npm run bench:ingest:pg [-- --database postgres://… --instances 2]
 *       Dash on PostgreSQL (a fresh schema of that server per run, dropped at the end), with
 *       `--instances N` Dash processes on it; the load goes round-robin over them, request by
 *       request (a load balancer without sticky sessions), and the baseline runs as N servers
 *       the same way. The rate defaults to the nodes reporting every 3 s there.
 *
 * Diagnosis: `-- --profile DIR` writes V8 CPU profiles of every Dash thread; BENCH_DASH_FLAGS
 * passes node flags to Dash (e.g. "--trace-gc") and BENCH_DASH_STDOUT=1 shows its stdout.
 */
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { LoadCommand, LoadResult } from './load.js';
import { seedNodes } from '../../test/support/seed-home.js';
import { agentReport } from '../../test/support/agent-payloads.js';
import { printTargets } from './targets.js';
import { rawRows, sealedBytes, storedBytes, tableBytes } from './sqlite.js';
import {
  cpuPerReport,
  rssMb,
  threadCpu,
  threadsCpu,
  threadWritten,
  writtenBytes,
  writtenPerReport,
} from './proc-stats.js';
import { benchSchema, type BenchSchema } from './postgres.js';

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
const SAT_SECONDS = Number(args.sat);
const CONNECTIONS = Number(args.connections);
const root = new URL('../../', import.meta.url).pathname;
const TSX = ['--import', 'tsx'];

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

async function waitForHttp(port: number, path: string, pollMs = 100): Promise<void> {
  for (let i = 0; i < 20_000 / pollMs; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
  throw new Error(`server on ${port} did not start`);
}

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
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

/** Dash from the build on `home`, listening on loopback; its stdout is hidden unless asked for. */
function spawnDash(
  home: string,
  port: number,
  nodeFlags: string[],
  databaseUrl?: string,
): ChildProcess {
  return spawn(process.execPath, [...nodeFlags, join(root, 'dist/main.js'), 'serve'], {
    cwd: root,
    env: {
      ...process.env,
      DASH_HOME: home,
      ...(databaseUrl ? { DASH_DATABASE_URL: databaseUrl } : {}),
      DASH_LISTEN: `127.0.0.1:${port}`,
      DASH_LOG_LEVEL: 'warn',
      DASH_ADMIN_PASSWORD: 'bench-password-1',
      // Every simulated node connects from loopback: no per-address connection cap.
      DASH_HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0',
    },
    stdio: ['ignore', process.env.BENCH_DASH_STDOUT ? 'inherit' : 'ignore', 'inherit'],
  });
}

async function stopDash(dash: ChildProcess, graceful: boolean): Promise<void> {
  if (dash.exitCode !== null || dash.signalCode !== null) return;
  const exited = new Promise((r) => dash.once('exit', r));
  // A profiled server must exit on its own to write its profiles.
  dash.kill(graceful ? 'SIGTERM' : 'SIGKILL');
  await exited;
}

/**
 * Time from spawning Dash on an existing home to serving: the API answers and a node's report
 * is stored (the ingest threads are up and the front state is loaded).
 */
async function measureStartup(
  home: string,
  secret: string,
  databaseUrl?: string,
): Promise<{ api: number; ingest: number }> {
  const port = await freePort();
  const t0 = performance.now();
  const dash = spawnDash(home, port, [], databaseUrl);
  try {
    await waitForHttp(port, '/api/version', 10);
    const api = (performance.now() - t0) / 1000;
    const body = JSON.stringify(agentReport({ seq: 1000 }));
    for (;;) {
      const res = await fetch(`http://127.0.0.1:${port}/api/node/metrics`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-node-secret': secret },
        body,
      });
      await res.arrayBuffer();
      if (res.status === 200) break;
      if (performance.now() - t0 > 60_000)
        throw new Error(`startup: report answered ${res.status}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    return { api, ingest: (performance.now() - t0) / 1000 };
  } finally {
    await stopDash(dash, false);
  }
}

/** Starts `count` bare baseline servers; resolves with them and their ports. */
async function startBaselines(count: number): Promise<{ procs: ChildProcess[]; ports: number[] }> {
  const procs = Array.from({ length: count }, () =>
    fork(join(root, 'bench/ingest/baseline-server.ts'), ['0'], { execArgv: TSX }),
  );
  const ports = await Promise.all(
    procs.map(
      (p) =>
        new Promise<number>((resolve) =>
          p.once('message', (m: { port: number }) => resolve(m.port)),
        ),
    ),
  );
  return { procs, ports };
}

async function main(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'dash-bench-'));
  const dbPath = join(home, 'dash.db');
  const started = performance.now();
  const loadAtStart = load1();
  const where = PG_URL
    ? `PostgreSQL (${new URL(PG_URL).host}), ${INSTANCES} instance${INSTANCES > 1 ? 's' : ''}`
    : 'SQLite';
  console.log(
    `ingest benchmark on ${where}: ${NODES} nodes, open loop ${RATE}/s for ${OPEN_SECONDS}s, saturation ${SAT_SECONDS}s × ${CONNECTIONS} connections${args.gzip ? ', gzip bodies' : ''}; load average ${loadAtStart}`,
  );
  // Measure what ships: the compiled build, not the TypeScript sources through a loader.
  const build = spawnSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    { cwd: root, stdio: 'inherit' },
  );
  if (build.status !== 0) throw new Error('build failed');
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
  }
  const gen = fork(join(root, 'bench/ingest/load.ts'), [], { execArgv: TSX, stdio: 'inherit' });
  const children: ChildProcess[] = [gen];
  let dashes: ChildProcess[] = [];
  try {
    // Baseline: bare node:http + JSON.parse, same bodies, same client, same machine, as many
    // servers as Dash instances.
    const base = await startBaselines(INSTANCES);
    children.push(...base.procs);
    const basePids = base.procs.map((p) => p.pid!);
    const baseCpu0 = [threadsCpu(basePids), threadCpu(gen.pid!)] as const;
    const baseSat = await load(gen, basePids, {
      ports: base.ports,
      path: '/api/node/metrics',
      gzip: args.gzip,
      secrets,
      mode: 'closed',
      seconds: SAT_SECONDS,
      connections: CONNECTIONS,
    });
    const baseCpuServer = cpuPerReport(baseCpu0[0], threadsCpu(basePids), baseSat.ok);
    const baseCpu = `server ${baseCpuServer.text}; generator ${cpuPerReport(baseCpu0[1], threadCpu(gen.pid!), baseSat.ok).text}`;
    // The same open loop against the baseline: what the generator and loopback add to latency.
    const baseOpen = await load(gen, basePids, {
      ports: base.ports,
      path: '/api/node/metrics',
      gzip: args.gzip,
      secrets,
      mode: 'open',
      rate: RATE,
      seconds: Math.min(OPEN_SECONDS, 5),
      connections: 256,
    });
    for (const b of base.procs) b.kill();

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

    const warm = await load(gen, pids, { ...common, mode: 'once' });
    const tableTotal = async () =>
      db
        ? Object.values(await db.tableBytes()).reduce((a, b) => a + b, 0)
        : storedBytes(dbPath).total;
    const before = await tableTotal();
    const cpuBeforeOpen = threadsCpu(pids);
    const writtenBeforeOpen = db ? 0 : writtenBytes(pid);
    const threadsBeforeOpen = db ? new Map<string, number>() : threadWritten(pid);
    const walBeforeOpen = await db?.walPosition();
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
    const openThreads = db ? '' : writtenPerReport(threadsBeforeOpen, threadWritten(pid), open.ok);
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
    const rows = db ? await db.rows() : rawRows(dbPath);
    const total = await tableTotal();
    const tables = db ? await db.tableBytes() : tableBytes(dbPath);

    const perReport = (afterOpen - before) / Math.max(1, open.ok);
    console.log('');
    console.log(line('baseline (node:http+JSON.parse)', baseSat));
    console.log(line(`baseline open loop ${RATE}/s`, baseOpen));
    console.log(line('dash warm-up (1 report/node)', warm));
    console.log(line(`dash open loop ${RATE}/s`, open));
    console.log(line('dash saturation', sat));
    console.log('');
    console.log(`open loop p99 by second (ms): ${open.p99BySecond.map((v) => fmt(v)).join(' ')}`);
    console.log(`CPU per report, baseline: ${baseCpu}`);
    console.log(`CPU per report, dash open loop: server ${openCpu.text}`);
    console.log(`CPU per report, dash saturation: ${satCpu}`);
    if (db) {
      console.log(
        `PostgreSQL WAL per report (whole server, other sessions included): open loop ${fmt(openWritten / 1024, 2)} KiB, saturation ${fmt(satWritten / 1024, 2)} KiB`,
      );
    } else {
      console.log(
        `disk writes per report: open loop ${fmt(openWritten / 1024, 2)} KiB, saturation ${fmt(satWritten / 1024, 2)} KiB`,
      );
      // By thread: the ingest threads write history, projections and traffic counters (and run
      // most checkpoints); the main thread writes alerts and sessions.
      console.log(`  by thread, open loop: ${openThreads}`);
      console.log(`  by thread, saturation: ${satThreads}`);
    }
    console.log(
      `stored bytes per report (growth during the open loop, all tables and indexes): ${fmt(perReport, 1)} (target ≤ 400)`,
    );
    // History grows with every report; the current projection and the device dictionary are
    // a fixed cost per node, so a short run says little about them per report.
    const PER_NODE = ['node_current', 'metric_devices', 'sqlite_autoindex_metric_devices_1'];
    const perNode = PER_NODE.reduce((n, t) => n + (tables[t] ?? 0), 0);
    const history = Object.entries(tables)
      .filter(([t]) => t.startsWith('metrics_'))
      .reduce((n, [, v]) => n + v, 0);
    console.log(
      `stored history per report (metrics_* tables): ${fmt(history / rows, 1)} bytes over ${fmt(rows)} reports; ` +
        `per-node fixed (current projection, devices): ${fmt(perNode / NODES / 1024, 1)} KiB/node; ` +
        `database total ${fmt(total / 1048576, 1)} MiB`,
    );
    console.log(
      `  by table (bytes per report): ${Object.entries(tables)
        .filter(([, v]) => v >= Math.max(4096 * 4, total / 100))
        .map(([k, v]) => `${k} ${fmt(v / rows, 1)}`)
        .join(', ')}`,
    );
    await Promise.all(dashes.map((d) => stopDash(d, Boolean(args.profile))));
    if (!db) {
      // Raw history as it stays on disk: seal the run's raw rows into blocks (as the rollup
      // job does every history_seal_interval) on the stopped server's database.
      const sealed = sealedBytes(dbPath);
      console.log(
        `stored raw history per report once sealed into blocks: ${fmt(sealed.bytes / Math.max(1, sealed.points), 1)} bytes ` +
          `over ${fmt(sealed.points)} reports in ${fmt(sealed.blocks)} blocks (target ≤ 60, stretch ≤ 30); ` +
          `sealing took ${fmt(sealed.ms)} ms`,
      );
    }
    // A restart on the run's database: every node has a current projection and history.
    const restart = await measureStartup(home, secrets[0]!, db?.url);
    console.log(
      `startup: cold (no reports yet) ${fmt(coldStart, 2)} s to the API; restart with ${NODES} nodes ` +
        `${fmt(restart.api, 2)} s to the API, ${fmt(restart.ingest, 2)} s to a stored report`,
    );
    const loadAtEnd = load1();
    console.log('');
    printTargets({
      title: PG_URL
        ? `issues 21 and 23, PostgreSQL, ${INSTANCES} instance${INSTANCES > 1 ? 's' : ''}`
        : 'issue 21',
      loadAverage: `${loadAtStart} at start, ${loadAtEnd} at end`,
      baseOpenP99: baseOpen.p99,
      openP99: open.p99,
      worstSecondP99: Math.max(0, ...open.p99BySecond),
      openErrors: open.sent - open.ok,
      openSent: open.sent,
      openPerSecond: open.perSecond,
      rssMb: open.rssMaxMb,
      satRssMb: sat.rssMaxMb,
      cpuUs: satCpuServer.total,
      baseCpuUs: baseCpuServer.total,
      diskKiB: openWritten / 1024,
      diskLabel: db ? 'PostgreSQL WAL' : undefined,
      satPerSecond: sat.perSecond,
      baseSatPerSecond: baseSat.perSecond,
      startupSeconds: restart.ingest,
      nodes: NODES,
      rate: RATE,
      instances: INSTANCES,
    });
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
