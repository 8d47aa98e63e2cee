/**
 * Footprint of the node agent at the default 3 s interval: the standalone executable (Bun
 * --compile, this machine's build) and the JS bundle run by Node, next to idle baselines (an idle
 * Node process, and the same standalone runtime idling) measured in the same run. The agents
 * report to a loopback stub that answers like Dash. Also prints the download size of every
 * standalone build that is present (gzip copy when `make agents` made one).
 *
 * Run: npm run bench:agent            (60 s; BENCH_SECONDS=30 for a shorter run)
 * Targets (issue 17): standalone RSS ≤ 30 MB, ≤ 0.3 % of one core; compressed download ≤ 50 MB.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_TARGETS, hostAgentTarget } from '../src/deploy/agent-targets.js';

const ROOT = new URL('..', import.meta.url).pathname;
const BUNDLE = join(ROOT, 'dist', 'agent', 'nodeagent.mjs');
const BIN_DIR = join(ROOT, 'dist', 'agent', 'bin');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const WARMUP_MS = 4_000;
const INTERVAL = 3;

const clockTicks = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

interface Usage {
  cpuSeconds: number;
  rssMiB: number;
  peakMiB: number;
  /** Anonymous (heap) pages, and file pages (mostly the executable's own code, clean). */
  anonMiB: number;
  fileMiB: number;
}

/** CPU time (user + system) and memory of a process, from /proc/<pid>. */
function usage(pid: number): Usage {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string): number => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1]);
  return {
    cpuSeconds: ticks / clockTicks,
    rssMiB: kb('VmRSS') / 1024,
    peakMiB: kb('VmHWM') / 1024,
    anonMiB: kb('RssAnon') / 1024,
    fileMiB: kb('RssFile') / 1024,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Measured {
  rss_mib: number;
  peak_rss_mib: number;
  anon_mib: number;
  file_mib: number;
  cpu_seconds_per_hour: number;
  cpu_percent_of_one_core: number;
}

async function main(): Promise<void> {
  const host = hostAgentTarget();
  const standalone = host ? join(BIN_DIR, host.asset) : '';
  if (!existsSync(standalone)) {
    throw new Error(`${standalone} is missing: run make agent-host (or make agents) first`);
  }
  let reports = 0;
  let statics = 0;
  let gzipBodies = 0;
  let bodyBytes = 0;
  // Answers like Dash, including `Accept-Encoding: gzip`, so the agents compress as they would.
  const server = createServer((req, res) => {
    if (req.headers['content-encoding'] === 'gzip') gzipBodies++;
    req.on('data', (c: Buffer) => (bodyBytes += c.length));
    res.setHeader('Accept-Encoding', 'gzip');
    req.on('end', () => {
      if (req.url?.endsWith('/static')) {
        statics++;
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
      } else {
        reports++;
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true,"update":null}');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const config = join(mkdtempSync(join(tmpdir(), 'bench-agent-')), 'report.yaml');
  writeFileSync(
    config,
    `targets:\n  - url: "http://127.0.0.1:${port}/api/node/metrics"\n    key: "bench"\n`,
  );
  const env = { ...process.env, NODE_REPORT_CONFIG: config };
  // The compiled agent runs the embedded bundle; BUN_BE_BUN=1 makes it the plain Bun runtime,
  // which gives the idle baseline of the same runtime.
  const processes: [string, ChildProcess][] = [
    ['standalone agent', spawn(standalone, ['push', String(INTERVAL)], { env, stdio: 'ignore' })],
    [
      'JS agent (node)',
      spawn(process.execPath, [BUNDLE, 'push', String(INTERVAL)], { env, stdio: 'ignore' }),
    ],
    [
      'idle node',
      spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }),
    ],
    [
      'idle bun runtime',
      spawn(standalone, ['-e', 'setInterval(() => {}, 1000)'], {
        env: { ...process.env, BUN_BE_BUN: '1' },
        stdio: 'ignore',
      }),
    ],
  ];
  try {
    await sleep(WARMUP_MS);
    const t0 = performance.now();
    const before = processes.map(([, c]) => usage(c.pid!));
    const reports0 = reports;
    const gzip0 = gzipBodies;
    const bytes0 = bodyBytes;
    await sleep(SECONDS * 1000);
    const elapsed = (performance.now() - t0) / 1000;
    const measured: Record<string, Measured> = {};
    processes.forEach(([name, c], i) => {
      const u0 = before[i]!;
      const u1 = usage(c.pid!);
      const perHour = ((u1.cpuSeconds - u0.cpuSeconds) / elapsed) * 3600;
      measured[name] = {
        rss_mib: +u1.rssMiB.toFixed(1),
        peak_rss_mib: +u1.peakMiB.toFixed(1),
        anon_mib: +u1.anonMiB.toFixed(1),
        file_mib: +u1.fileMiB.toFixed(1),
        cpu_seconds_per_hour: +perHour.toFixed(2),
        cpu_percent_of_one_core: +((perHour / 3600) * 100).toFixed(3),
      };
    });
    const downloads = AGENT_TARGETS.flatMap((t) => {
      const file = join(BIN_DIR, t.asset);
      if (!existsSync(file)) return [];
      const gz = existsSync(`${file}.gz`) ? statSync(`${file}.gz`).size : null;
      return [{ asset: t.asset, bytes: statSync(file).size, gzip_bytes: gz }];
    });
    const agent = measured['standalone agent']!;
    const result = {
      seconds: Math.round(elapsed),
      interval_seconds: INTERVAL,
      reports_received: reports - reports0,
      gzip_bodies: gzipBodies - gzip0,
      body_bytes_per_report: Math.round((bodyBytes - bytes0) / Math.max(1, reports - reports0)),
      static_received: statics,
      clock_ticks_per_second: clockTicks,
      processes: measured,
      downloads,
      targets: { rss_mb_at_most: 30, cpu_percent_at_most: 0.3, gzip_download_mb_at_most: 50 },
    };
    const mb = (n: number) => (n / 1e6).toFixed(1);
    const lines = [
      `agent footprint over ${result.seconds}s at a ${INTERVAL}s interval (${result.reports_received} reports from 2 agents, ${result.gzip_bodies} gzip-encoded, ${result.body_bytes_per_report} bytes each on average)`,
      `                      RSS now   RSS peak   (anon + file)     CPU s/hour   % of one core`,
      ...Object.entries(measured).map(
        ([name, m]) =>
          `  ${name.padEnd(18)} ${m.rss_mib.toFixed(1).padStart(6)} MiB ${m.peak_rss_mib.toFixed(1).padStart(6)} MiB  (${m.anon_mib.toFixed(1).padStart(4)} + ${m.file_mib.toFixed(1).padStart(4)})  ${m.cpu_seconds_per_hour.toFixed(2).padStart(10)} ${m.cpu_percent_of_one_core.toFixed(3).padStart(13)}`,
      ),
      '  downloads (MB = 10^6 bytes):',
      ...downloads.map(
        (d) =>
          `    ${d.asset.padEnd(32)} ${mb(d.bytes).padStart(6)} MB${d.gzip_bytes === null ? '' : `, gzip ${mb(d.gzip_bytes)} MB`}`,
      ),
      `  standalone: RSS ${agent.peak_rss_mib * 1.048576 <= 30 ? 'meets' : 'misses'} ≤ 30 MB, CPU ${agent.cpu_percent_of_one_core <= 0.3 ? 'meets' : 'misses'} ≤ 0.3 %`,
      '',
    ];
    process.stdout.write(lines.join('\n'));
    mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench', 'results', 'agent.json'), JSON.stringify(result, null, 2));
  } finally {
    for (const [, c] of processes) c.kill('SIGTERM');
    server.closeAllConnections();
    server.close();
  }
}

await main();
