/**
 * GET /metrics scrape cost (issue 24). Run: npm run bench:metrics
 *
 * 10,000 reporting nodes (BENCH_NODES), each with a full agent report. A separate process
 * (curl) scrapes over a socket; the figure is this process's CPU time (user + system, every
 * thread) per scrape, median of BENCH_SCRAPES. Measured in the same run:
 * - baseline: a bare node:http server answering the same exposition bytes from memory, i.e.
 *   the cost of moving that many bytes through HTTP at all;
 * - scrape: Dash answering /metrics from its node cache, after every node reported again
 *   since the cache was built (the usual case: nodes report every few seconds);
 * - refresh: the background rebuild of the node cache after every node reported again (runs
 *   from a job every metrics_refresh_interval while someone scrapes, not per scrape);
 * - cold scrape: the first scrape, which builds the cache before answering.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config/load.js';
import { createSqliteBenchDeps, type BenchDeps } from './sqlite-deps.js';
import { buildApp } from '../src/app.js';
import { silentLogger } from '../src/platform/logger.js';
import { NodeSecretIndex } from '../src/domain/nodes/secret-index.js';
import { tempHome } from '../test/support/build-app.js';
import { agentReport } from '../test/support/agent-payloads.js';
import { FakeClock } from '../test/support/fake-clock.js';

const NODES = Number(process.env.BENCH_NODES ?? 10_000);
const SCRAPES = Number(process.env.BENCH_SCRAPES ?? 7);
const TOKEN = 'bench-metrics-token-0123456789';
const run = promisify(execFile);

function insertNode(deps: BenchDeps, i: number): number {
  const now = deps.clock.now();
  const secret = `bench-secret-${i}-xxxxxxxx`;
  const r = deps.raw
    .prepare(
      `INSERT INTO nodes (name, secret_hash, secret_enc, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?)`,
    )
    .run(`node-${i}`, NodeSecretIndex.hash(secret), deps.dataKey.encrypt(secret), now, now);
  return Number(r.lastInsertRowid);
}

async function reportAll(deps: BenchDeps, ids: number[], seq: number): Promise<void> {
  const body = JSON.stringify(agentReport({ seq }));
  const at = deps.clock.now();
  const pending: Array<Promise<unknown>> = [];
  for (const id of ids) {
    pending.push(
      deps.metricsIngest.accept({ nodeId: id, receivedAt: at, body: Buffer.from(body), ip: null }),
    );
    if (pending.length >= 500) await Promise.all(pending.splice(0));
  }
  await Promise.all(pending);
}

/**
 * CPU milliseconds this process (every thread) spends while `work` runs. It first idles half a
 * second so background work of the previous step (the garbage collector's threads above all)
 * is not billed to the measurement.
 */
async function cpuMs(work: () => Promise<unknown>): Promise<number> {
  await new Promise((r) => setTimeout(r, 500));
  const before = process.cpuUsage();
  await work();
  const d = process.cpuUsage(before);
  return (d.user + d.system) / 1000;
}

async function scrape(port: number, path = '/metrics'): Promise<number> {
  const r = await run('curl', [
    '-sS',
    '-o',
    '/dev/null',
    '-w',
    '%{http_code} %{size_download}',
    '-H',
    `Authorization: Bearer ${TOKEN}`,
    `http://127.0.0.1:${port}${path}`,
  ]);
  const [status, size] = r.stdout.split(' ');
  if (status !== '200') throw new Error(`scrape answered ${status}`);
  return Number(size);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

async function main(): Promise<void> {
  const config = loadConfig({
    DASH_HOME: tempHome(),
    DASH_DATABASE_URL: 'sqlite::memory:',
    DASH_TIMEZONE: 'UTC',
    DASH_METRICS_ENABLED: 'true',
    DASH_METRICS_TOKEN: TOKEN,
  });
  const clock = new FakeClock();
  const deps = await createSqliteBenchDeps(config, { clock, log: silentLogger });
  const telemetry = deps.telemetry!;
  console.log(`seeding ${NODES} nodes with one report each...`);
  const ids = Array.from({ length: NODES }, (_, i) => insertNode(deps, i));
  for (const id of ids) await deps.front.ensureNode(id);
  await reportAll(deps, ids, 0);

  const app = buildApp(deps);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;

  const cold = await cpuMs(() => scrape(port));
  const res = await app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  const bytes = res.rawPayload;
  const series = res.body.split('\n').filter((l) => l !== '' && !l.startsWith('#')).length;

  const bare = createServer((_req, reply) => {
    reply.writeHead(200, {
      'content-type': 'text/plain; version=0.0.4',
      'cache-control': 'no-store',
    });
    reply.end(bytes);
  });
  const barePort = await listen(bare);

  const base: number[] = [];
  const warm: number[] = [];
  const refresh: number[] = [];
  for (let i = 0; i < SCRAPES; i++) {
    // Every node reports again, as between two real scrapes; then the job's refresh runs.
    clock.advance(3000);
    await reportAll(deps, ids, i + 1);
    await deps.ingestBackend.drain();
    refresh.push(await cpuMs(() => telemetry.nodes.refresh(clock.now())));
    clock.advance(3000);
    await reportAll(deps, ids, i + 100);
    await deps.ingestBackend.drain();
    base.push(await cpuMs(() => scrape(barePort)));
    warm.push(await cpuMs(() => scrape(port)));
  }
  const b = median(base);
  const w = median(warm);
  const range = (xs: number[]) =>
    `(min ${Math.min(...xs).toFixed(1)}, max ${Math.max(...xs).toFixed(1)})`;
  console.log(
    `exposition: ${NODES} nodes, ${series} series, ${(bytes.length / 1e6).toFixed(1)} MB`,
  );
  console.log(
    `  baseline (bare server, same bytes)   ${b.toFixed(1).padStart(7)} ms CPU per scrape  ${range(base)}`,
  );
  console.log(
    `  dash scrape (warm node cache)        ${w.toFixed(1).padStart(7)} ms CPU per scrape  ` +
      `${range(warm)}, ${(w - b).toFixed(1)} ms over baseline (target: scrape < 50 ms)`,
  );
  console.log(
    `  node cache refresh, all nodes new    ${median(refresh).toFixed(1).padStart(7)} ms CPU per refresh interval (background job)`,
  );
  console.log(`  cold first scrape (builds the cache) ${cold.toFixed(1).padStart(7)} ms CPU`);
  await app.close();
  bare.close();
  await deps.shutdown();
}

await main();
