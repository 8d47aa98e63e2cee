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
 *   npm run bench:ingest -- --only startup,rss   only the phases these targets need
 *     (latency, rss, disk, cpu, saturation, startup); --prebuilt skips the build
 *
 * Diagnosis: `-- --profile DIR` writes V8 CPU profiles of every Dash thread; BENCH_DASH_FLAGS
 * passes node flags to Dash (e.g. "--trace-gc") and BENCH_DASH_STDOUT=1 shows its stdout.
 */
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import type { LoadCommand, LoadResult } from './load.js';
import { seedNodes } from '../../test/support/seed-home.js';
import { sealAll } from '../../src/store/sqlite/history-blocks.js';
import { agentReport } from '../../test/support/agent-payloads.js';
import { printTargets, type TargetFigures } from './targets.js';
import {
  cpuPerReport,
  rssMb,
  threadCpu,
  threadWritten,
  writtenBytes,
  writtenPerReport,
} from './proc.js';

const { values: args } = parseArgs({
  options: {
    nodes: { type: 'string', default: '10000' },
    rate: { type: 'string', default: '3000' },
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
  },
});
const NODES = Number(args.nodes);
const RATE = Number(args.rate);
const OPEN_SECONDS = Number(args.open);
const SAT_SECONDS = Number(args.sat);
const CONNECTIONS = Number(args.connections);
const root = new URL('../../', import.meta.url).pathname;
const TSX = ['--import', 'tsx'];

/** Runs a load phase in the generator process while sampling the server's RSS. */
async function load(
  gen: ChildProcess,
  serverPid: number,
  cmd: LoadCommand,
): Promise<LoadResult & { rssMaxMb: number }> {
  let rssMaxMb = rssMb(serverPid);
  const sampler = setInterval(() => (rssMaxMb = Math.max(rssMaxMb, rssMb(serverPid))), 200);
  try {
    const result = await new Promise<LoadResult>((resolve, reject) => {
      gen.once('message', (m: LoadResult | { error: string }) =>
        'error' in m ? reject(new Error(m.error)) : resolve(m),
      );
      gen.send(cmd);
    });
    return { ...result, rssMaxMb: Math.max(rssMaxMb, rssMb(serverPid)) };
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

function storedBytes(dbPath: string): { total: number; tables: Record<string, number> } {
  const db = new BetterSqlite3(dbPath, { readonly: true });
  try {
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const pages = db.pragma('page_count', { simple: true }) as number;
    const free = db.pragma('freelist_count', { simple: true }) as number;
    return { total: (pages - free) * pageSize, tables: {} };
  } finally {
    db.close();
  }
}

function tableBytes(dbPath: string): Record<string, number> {
  const db = new BetterSqlite3(dbPath, { readonly: true });
  try {
    const rows = db
      .prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC')
      .all() as Array<{ name: string; bytes: number }>;
    return Object.fromEntries(rows.map((r) => [r.name, r.bytes]));
  } finally {
    db.close();
  }
}

/** Seals every raw row into blocks (all windows closed) and sums the block bytes. */
function sealedBytes(dbPath: string) {
  const db = new BetterSqlite3(dbPath);
  try {
    const t0 = performance.now();
    const r = sealAll(db, Date.now() + 2 * 3_600_000);
    const ms = performance.now() - t0;
    const bytes = db.prepare('SELECT sum(length(data)) AS b FROM metrics_blocks').pluck().get();
    return { bytes: Number(bytes ?? 0), points: r.points, blocks: r.blocks, ms };
  } finally {
    db.close();
  }
}

const fmt = (n: number, d = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

function line(label: string, r: LoadResult & { rssMaxMb?: number }): string {
  const errs = Object.entries(r.errors);
  return (
    `${label.padEnd(30)} ${fmt(r.perSecond).padStart(7)} reports/s  p50 ${fmt(r.p50, 2).padStart(7)} ms` +
    `  p99 ${fmt(r.p99, 2).padStart(7)} ms  max ${fmt(r.max, 1).padStart(7)} ms  ok ${fmt(r.ok)}/${fmt(r.sent)}` +
    (errs.length ? `  errors ${errs.map(([k, v]) => `${k}×${v}`).join(' ')}` : '  errors 0') +
    (r.rssMaxMb !== undefined ? `  RSS max ${fmt(r.rssMaxMb)} MB` : '')
  );
}

const load1 = () => fmt(loadavg()[0]!, 2);

/** Dash from the build on `home`, listening on loopback; its stdout is hidden unless asked for. */
function spawnDash(home: string, port: number, nodeFlags: string[]): ChildProcess {
  return spawn(process.execPath, [...nodeFlags, join(root, 'dist/main.js'), 'serve'], {
    cwd: root,
    env: {
      ...process.env,
      DASH_HOME: home,
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
  profileDir: string | undefined,
): Promise<{ api: number; ingest: number; cpu: number }> {
  const port = await freePort();
  const t0 = performance.now();
  const profile = profileDir ? ['--cpu-prof', '--cpu-prof-dir', join(profileDir, 'startup')] : [];
  const dash = spawnDash(home, port, profile);
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
    const ingest = (performance.now() - t0) / 1000;
    // CPU seconds of all of Dash's threads until then: on a shared machine the wall time
    // scales with the load, this much less.
    const cpu = [...threadCpu(dash.pid!).values()].reduce((a, b) => a + b, 0);
    return { api, ingest, cpu };
  } finally {
    await stopDash(dash, profileDir !== undefined);
  }
}

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
  console.log(
    `ingest benchmark: ${NODES} nodes, open loop ${RATE}/s for ${OPEN_SECONDS}s, saturation ${SAT_SECONDS}s × ${CONNECTIONS} connections${args.gzip ? ', gzip bodies' : ''}; ` +
      `phases ${[...phases].join(', ')}; load average ${loadAtStart}`,
  );
  // Measure what ships: the compiled build, not the TypeScript sources through a loader.
  if (!args.prebuilt) {
    const build = spawnSync('npm', ['run', '-s', 'build:server'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  const secrets = await seedNodes(home, NODES);
  const gen = fork(join(root, 'bench/ingest/load.ts'), [], { execArgv: TSX, stdio: 'inherit' });
  const children: ChildProcess[] = [gen];
  let dash: ChildProcess | undefined;
  const figures: TargetFigures = {
    loadAverage: '',
    nodes: NODES,
    rate: RATE,
  };
  try {
    // Baseline: bare node:http + JSON.parse, same bodies, same client, same machine.
    let baseSat: (LoadResult & { rssMaxMb: number }) | undefined;
    let baseOpen: (LoadResult & { rssMaxMb: number }) | undefined;
    let baseCpu = '';
    if (phases.has('baseSat') || phases.has('baseOpen')) {
      const base = fork(join(root, 'bench/ingest/baseline-server.ts'), ['0'], { execArgv: TSX });
      children.push(base);
      const basePort = await new Promise<number>((resolve) =>
        base.once('message', (m: { port: number }) => resolve(m.port)),
      );
      if (phases.has('baseSat')) {
        const baseCpu0 = [threadCpu(base.pid!), threadCpu(gen.pid!)] as const;
        baseSat = await load(gen, base.pid!, {
          port: basePort,
          path: '/api/node/metrics',
          gzip: args.gzip,
          secrets,
          mode: 'closed',
          seconds: SAT_SECONDS,
          connections: CONNECTIONS,
        });
        const baseCpuServer = cpuPerReport(baseCpu0[0], threadCpu(base.pid!), baseSat.ok);
        baseCpu = `server ${baseCpuServer.text}; generator ${cpuPerReport(baseCpu0[1], threadCpu(gen.pid!), baseSat.ok).text}`;
        figures.baseCpuUs = baseCpuServer.total;
        figures.baseSatPerSecond = baseSat.perSecond;
      }
      if (phases.has('baseOpen')) {
        // The same open loop against the baseline: what the generator and loopback add to latency.
        baseOpen = await load(gen, base.pid!, {
          port: basePort,
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
      base.kill();
    }

    const port = await freePort();
    const profile = args.profile ? ['--cpu-prof', '--cpu-prof-dir', args.profile] : [];
    const extra = process.env.BENCH_DASH_FLAGS ? process.env.BENCH_DASH_FLAGS.split(' ') : [];
    const spawnedAt = performance.now();
    dash = spawnDash(home, port, [...profile, ...extra]);
    children.push(dash);
    await waitForHttp(port, '/api/version', 10);
    const coldStart = (performance.now() - spawnedAt) / 1000;
    const pid = dash.pid!;
    const common = {
      port,
      path: '/api/node/metrics',
      secrets,
      connections: CONNECTIONS,
      gzip: args.gzip,
    };

    // Every node gets a current projection (the startup phase restarts on it).
    const warm = await load(gen, pid, { ...common, mode: 'once' });
    console.log('');
    if (baseSat) console.log(line('baseline (node:http+JSON.parse)', baseSat));
    if (baseOpen) console.log(line(`baseline open loop ${RATE}/s`, baseOpen));
    console.log(line('dash warm-up (1 report/node)', warm));
    if (phases.has('open')) {
      const before = storedBytes(dbPath);
      const cpuBeforeOpen = threadCpu(pid);
      const writtenBeforeOpen = writtenBytes(pid);
      const threadsBeforeOpen = threadWritten(pid);
      const open = await load(gen, pid, {
        ...common,
        mode: 'open',
        rate: RATE,
        seconds: OPEN_SECONDS,
        connections: 256,
      });
      const openWritten = (writtenBytes(pid) - writtenBeforeOpen) / Math.max(1, open.ok);
      const openCpu = cpuPerReport(cpuBeforeOpen, threadCpu(pid), open.ok);
      const afterOpen = storedBytes(dbPath);
      const openThreads = writtenPerReport(threadsBeforeOpen, threadWritten(pid), open.ok);
      console.log(line(`dash open loop ${RATE}/s`, open));
      console.log(`open loop p99 by second (ms): ${open.p99BySecond.map((v) => fmt(v)).join(' ')}`);
      console.log(`CPU per report, dash open loop: server ${openCpu.text}`);
      console.log(`disk writes per report, open loop: ${fmt(openWritten / 1024, 2)} KiB`);
      // By thread: the ingest threads write history, projections and traffic counters (and run
      // most checkpoints); the main thread writes alerts and sessions.
      console.log(`  by thread: ${openThreads}`);
      const perReport = (afterOpen.total - before.total) / Math.max(1, open.ok);
      console.log(
        `stored bytes per report (growth during the open loop, all tables and indexes): ${fmt(perReport, 1)} (target ≤ 400)`,
      );
      Object.assign(figures, {
        openP99: baseOpen ? open.p99 : undefined,
        worstSecondP99: baseOpen ? Math.max(0, ...open.p99BySecond) : undefined,
        openErrors: open.sent - open.ok,
        rssMb: open.rssMaxMb,
        diskKiB: openWritten / 1024,
      });
    }
    if (phases.has('sat')) {
      const cpuBeforeSat = threadCpu(pid);
      const genBeforeSat = threadCpu(gen.pid!);
      const writtenBeforeSat = writtenBytes(pid);
      const threadsBeforeSat = threadWritten(pid);
      const sat = await load(gen, pid, { ...common, mode: 'closed', seconds: SAT_SECONDS });
      const satWritten = (writtenBytes(pid) - writtenBeforeSat) / Math.max(1, sat.ok);
      const satThreads = writtenPerReport(threadsBeforeSat, threadWritten(pid), sat.ok);
      const satCpuServer = cpuPerReport(cpuBeforeSat, threadCpu(pid), sat.ok);
      const satCpu = `server ${satCpuServer.text}; generator ${cpuPerReport(genBeforeSat, threadCpu(gen.pid!), sat.ok).text}`;
      console.log(line('dash saturation', sat));
      console.log(`CPU per report, baseline: ${baseCpu}`);
      console.log(`CPU per report, dash saturation: ${satCpu}`);
      console.log(`disk writes per report, saturation: ${fmt(satWritten / 1024, 2)} KiB`);
      console.log(`  by thread: ${satThreads}`);
      Object.assign(figures, {
        cpuUs: satCpuServer.total,
        satPerSecond: sat.perSecond,
        satRssMb: sat.rssMaxMb,
      });
    }
    const rows = (
      new BetterSqlite3(dbPath, { readonly: true })
        .prepare('SELECT count(*) AS n FROM metrics_raw')
        .get() as { n: number }
    ).n;
    const total = storedBytes(dbPath).total;
    const tables = tableBytes(dbPath);
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
        .filter(([, v]) => v >= 4096 * 4)
        .map(([k, v]) => `${k} ${fmt(v / rows, 1)}`)
        .join(', ')}`,
    );
    await stopDash(dash, Boolean(args.profile));
    // Raw history as it stays on disk: seal the run's raw rows into blocks (as the rollup job
    // does every history_seal_interval) on the stopped server's database.
    const sealed = sealedBytes(dbPath);
    console.log(
      `stored raw history per report once sealed into blocks: ${fmt(sealed.bytes / Math.max(1, sealed.points), 1)} bytes ` +
        `over ${fmt(sealed.points)} reports in ${fmt(sealed.blocks)} blocks (target ≤ 60, stretch ≤ 30); ` +
        `sealing took ${fmt(sealed.ms)} ms`,
    );
    if (phases.has('startup')) {
      // A restart on the run's database: every node has a current projection and history.
      const restart = await measureStartup(home, secrets[0]!, args.profile);
      console.log(
        `startup: cold (no reports yet) ${fmt(coldStart, 2)} s to the API; restart with ${NODES} nodes ` +
          `${fmt(restart.api, 2)} s to the API, ${fmt(restart.ingest, 2)} s to a stored report ` +
          `(CPU ${fmt(restart.cpu, 2)} s, all threads; load average ${load1()})`,
      );
      figures.startupSeconds = restart.ingest;
    }
    console.log('');
    figures.loadAverage = `${loadAtStart} at start, ${load1()} at end`;
    printTargets(figures);
    console.log(`benchmark took ${fmt((performance.now() - started) / 1000, 1)} s`);
  } finally {
    if (dash) await stopDash(dash, Boolean(args.profile));
    for (const c of children) c.kill('SIGKILL');
    if (!args.keep) rmSync(home, { recursive: true, force: true });
    else console.log(`kept ${home}`);
  }
}

await main();
