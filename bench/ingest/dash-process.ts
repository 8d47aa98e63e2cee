/**
 * The processes the ingest benchmark starts: Dash from the build (`dist/`), on a home and
 * optionally a PostgreSQL database, and the bare baseline servers.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { agentReport } from '../../test/support/agent-payloads.js';
import { threadCpu } from './proc-stats.js';

const root = new URL('../../', import.meta.url).pathname;
const TSX = ['--import', 'tsx'];

export async function waitForHttp(port: number, path: string, pollMs = 100): Promise<void> {
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

export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** Dash from the build on `home`, listening on loopback; its stdout is hidden unless asked for. */
export function spawnDash(
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
      // /metrics for the ingest threads' disk writes by source (scrapeLogIo).
      DASH_METRICS_ENABLED: 'true',
      DASH_METRICS_ALLOW: '127.0.0.1/32',
      // The bench scrapes only its counters, before and after a phase; a scrape also starts the
      // per-node part's refreshes (every interval while scraped: with 10,000 nodes about a
      // second of the HTTP thread each, docs/ingest-performance.md), which would otherwise land
      // inside the measured phases. The longest interval keeps them out of runs under 5 min.
      DASH_METRICS_REFRESH_INTERVAL: process.env.DASH_METRICS_REFRESH_INTERVAL ?? '300s',
    },
    stdio: ['ignore', process.env.BENCH_DASH_STDOUT ? 'inherit' : 'ignore', 'inherit'],
  });
}

export async function stopDash(dash: ChildProcess, graceful: boolean): Promise<void> {
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
export async function measureStartup(
  home: string,
  secret: string,
  profileDir: string | undefined,
  databaseUrl?: string,
): Promise<{ api: number; ingest: number; cpu: number; mainCpu: number }> {
  const port = await freePort();
  const t0 = performance.now();
  const profile = profileDir ? ['--cpu-prof', '--cpu-prof-dir', join(profileDir, 'startup')] : [];
  const dash = spawnDash(home, port, profile, databaseUrl);
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
    // The HTTP thread's share is the start's critical path (the ingest threads load beside it).
    const threads = threadCpu(dash.pid!);
    const cpu = [...threads.values()].reduce((a, b) => a + b, 0);
    const mainCpu = threads.get(`${dash.pid!} main`) ?? 0;
    return { api, ingest, cpu, mainCpu };
  } finally {
    await stopDash(dash, profileDir !== undefined);
  }
}

/** Starts `count` bare baseline servers; resolves with them and their ports. */
export async function startBaselines(
  count: number,
): Promise<{ procs: ChildProcess[]; ports: number[] }> {
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
