/**
 * Footprint of the bundled node agent at the default 3 s interval, next to an idle Node process
 * measured in the same run. The agent reports to a loopback stub that answers like Dash.
 *
 * Run: npm run bench:agent            (60 s; BENCH_SECONDS=30 for a shorter run)
 * Targets (issue 7): RSS < 60 MB and CPU under 0.5 % of one core.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const BUNDLE = join(ROOT, 'dist', 'agent', 'nodeagent.mjs');
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
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  let reports = 0;
  let statics = 0;
  const server = createServer((req, res) => {
    req.resume();
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

  const children: ChildProcess[] = [
    spawn(process.execPath, [BUNDLE, 'push', String(INTERVAL)], {
      env: { ...process.env, NODE_REPORT_CONFIG: config },
      stdio: 'ignore',
    }),
    spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }),
  ];
  const [agent, idle] = children.map((c) => c.pid!) as [number, number];
  try {
    await sleep(WARMUP_MS);
    const t0 = performance.now();
    const a0 = usage(agent);
    const b0 = usage(idle);
    const reports0 = reports;
    await sleep(SECONDS * 1000);
    const elapsed = (performance.now() - t0) / 1000;
    const a1 = usage(agent);
    const b1 = usage(idle);

    const perHour = (u0: Usage, u1: Usage) => ((u1.cpuSeconds - u0.cpuSeconds) / elapsed) * 3600;
    const agentCpuH = perHour(a0, a1);
    const idleCpuH = perHour(b0, b1);
    const result = {
      seconds: Math.round(elapsed),
      interval_seconds: INTERVAL,
      reports_received: reports - reports0,
      static_received: statics,
      clock_ticks_per_second: clockTicks,
      agent: {
        rss_mib: +a1.rssMiB.toFixed(1),
        peak_rss_mib: +a1.peakMiB.toFixed(1),
        cpu_seconds_per_hour: +agentCpuH.toFixed(2),
        cpu_percent_of_one_core: +((agentCpuH / 3600) * 100).toFixed(3),
      },
      idle_node_baseline: {
        rss_mib: +b1.rssMiB.toFixed(1),
        peak_rss_mib: +b1.peakMiB.toFixed(1),
        cpu_seconds_per_hour: +idleCpuH.toFixed(2),
        cpu_percent_of_one_core: +((idleCpuH / 3600) * 100).toFixed(3),
      },
      targets: { rss_mib_below: 60, cpu_percent_below: 0.5 },
    };
    const pass = result.agent.peak_rss_mib < 60 && result.agent.cpu_percent_of_one_core < 0.5;
    process.stdout.write(
      [
        `agent footprint over ${result.seconds}s at a ${INTERVAL}s interval (${result.reports_received} reports)`,
        `                 RSS now   RSS peak   CPU s/hour   % of one core`,
        `  nodeagent     ${result.agent.rss_mib.toFixed(1).padStart(6)} MiB ${result.agent.peak_rss_mib.toFixed(1).padStart(6)} MiB ${result.agent.cpu_seconds_per_hour.toFixed(2).padStart(10)} ${result.agent.cpu_percent_of_one_core.toFixed(3).padStart(13)}`,
        `  idle node     ${result.idle_node_baseline.rss_mib.toFixed(1).padStart(6)} MiB ${result.idle_node_baseline.peak_rss_mib.toFixed(1).padStart(6)} MiB ${result.idle_node_baseline.cpu_seconds_per_hour.toFixed(2).padStart(10)} ${result.idle_node_baseline.cpu_percent_of_one_core.toFixed(3).padStart(13)}`,
        `  target: RSS < 60 MB, CPU < 0.5 % of one core → ${pass ? 'met' : 'NOT met'}`,
        '',
      ].join('\n'),
    );
    mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench', 'results', 'agent.json'), JSON.stringify(result, null, 2));
  } finally {
    for (const c of children) c.kill('SIGTERM');
    server.closeAllConnections();
    server.close();
  }
}

await main();
