/**
 * Read-path benchmark (issue: dashboard reads). Run: npm run bench:reads
 *
 * 1. GET /api/front/metrics with 1,000 reporting nodes, gzip, against a bare node:http server
 *    that returns the same compressed bytes from memory, measured in the same run with the same
 *    load generator (a separate process). Once with static data and once while every node
 *    reports every 3 s (333 reports/s through the real ingest path).
 * 2. GET /api/metrics/history for one node at full retention (8 days of raw 3 s samples, sealed
 *    into blocks, plus their 15-minute and 1-hour rollups): server time per request for 24h, 1w,
 *    15d and 30d, and the bare decode time of one series' raw points (BENCH_SKIP_FRONT=1 skips 1).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { createSqliteBenchDeps, type BenchDeps } from '../sqlite-deps.js';
import { buildApp } from '../../src/app.js';
import { silentLogger } from '../../src/platform/logger.js';
import { NodeSecretIndex } from '../../src/domain/nodes/secret-index.js';
import { agentReport } from '../../test/support/agent-payloads.js';
import { HOST_METRICS } from '../../src/protocol/history-metrics.js';
import { historySource } from '../../src/store/sqlite/history-source.js';

const NODES = Number(process.env.BENCH_NODES ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNS = 16;
const CHILD = new URL('./load-child.ts', import.meta.url).pathname;

function insertNode(
  deps: BenchDeps,
  i: number,
  guestVisible: boolean,
): { id: number; secret: string } {
  const secret = `bench-secret-${i}-xxxxxxxx`;
  const now = deps.clock.now();
  const r = deps.raw
    .prepare(
      `INSERT INTO nodes (name, secret_hash, secret_enc, is_guest_visible, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    )
    .run(
      `node-${i}`,
      NodeSecretIndex.hash(secret),
      deps.dataKey.encrypt(secret),
      guestVisible ? 1 : 0,
      now,
      now,
    );
  const id = Number(r.lastInsertRowid);
  deps.nodeSecrets.set(id, secret);
  return { id, secret };
}

async function report(deps: BenchDeps, id: number, seq: number, at: number): Promise<void> {
  const body = Buffer.from(JSON.stringify(agentReport({ seq, hostname: `host-${id}` })));
  await deps.metricsIngest.accept({ nodeId: id, receivedAt: at, body, ip: '127.0.0.1' });
}

const execFileAsync = promisify(execFile);

/** Runs the load generator in its own process; the servers stay responsive meanwhile. */
async function load(
  port: number,
  path: string,
  headers: string[],
): Promise<{ rps: number; errors: number }> {
  const r = await execFileAsync(
    process.execPath,
    ['--import', 'tsx', CHILD, String(port), path, String(SECONDS), String(CONNS), ...headers],
    {
      encoding: 'utf8',
    },
  );
  const out = JSON.parse(r.stdout) as { requests: number; errors: number; seconds: number };
  return { rps: out.requests / out.seconds, errors: out.errors };
}

async function frontBench(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'dash-bench-reads-'));
  const config = loadConfig({
    DASH_HOME: home,
    DASH_LOG_LEVEL: 'silent',
    DASH_TIMEZONE: 'UTC',
    // Every load client connects from loopback: no per-address connection cap.
    DASH_HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0',
  });
  const deps = await createSqliteBenchDeps(config, { log: silentLogger });
  const nodes = Array.from({ length: NODES }, (_, i) => insertNode(deps, i, true));
  for (const n of nodes) await deps.front.ensureNode(n.id);
  let seq = 0;
  await Promise.all(nodes.map((n) => report(deps, n.id, seq, deps.clock.now())));
  const app = buildApp(deps);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  const first = await fetch(`http://127.0.0.1:${port}/api/front/metrics`, {
    headers: { 'accept-encoding': 'gzip' },
  });
  const plain = Buffer.from(await first.arrayBuffer());
  const gz = await app.inject({
    method: 'GET',
    url: '/api/front/metrics',
    headers: { 'accept-encoding': 'gzip' },
  });
  const gzip = gz.rawPayload;
  console.log(
    `front metrics: ${NODES} nodes, ${plain.length} bytes JSON, ${gzip.length} bytes gzip`,
  );

  const bare = createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-encoding': 'gzip',
      'cache-control': 'no-store',
      'content-length': gzip.length,
    });
    res.end(gzip);
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const barePort = (bare.address() as AddressInfo).port;
  const headers = ['Accept-Encoding: gzip'];

  const base = await load(barePort, '/api/front/metrics', headers);
  const dash = await load(port, '/api/front/metrics', headers);
  console.log(`  baseline (bare server, same bytes)  ${base.rps.toFixed(0).padStart(7)} req/s`);
  console.log(
    `  dash, static data                    ${dash.rps.toFixed(0).padStart(7)} req/s  ratio ${(dash.rps / base.rps).toFixed(2)}  errors ${dash.errors}`,
  );

  // Every node reports every 3 s while the reads run.
  let stop = false;
  const reporter = (async () => {
    while (!stop) {
      const tick = Date.now();
      seq++;
      for (const n of nodes) {
        if (stop) break;
        void report(deps, n.id, seq, Date.now());
        if ((n.id & 31) === 0) await new Promise((r) => setImmediate(r));
      }
      await new Promise((r) => setTimeout(r, Math.max(0, 3000 - (Date.now() - tick))));
    }
  })();
  const live = await load(port, '/api/front/metrics', headers);
  stop = true;
  await reporter;
  console.log(
    `  dash, 333 reports/s arriving         ${live.rps.toFixed(0).padStart(7)} req/s  ratio ${(live.rps / base.rps).toFixed(2)}  errors ${live.errors}`,
  );
  bare.close();
  await app.close();
  await deps.shutdown();
}

async function historyBench(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'dash-bench-history-'));
  const config = loadConfig({
    DASH_HOME: home,
    DASH_LOG_LEVEL: 'silent',
    DASH_TIMEZONE: 'UTC',
    // Every load client connects from loopback: no per-address connection cap.
    DASH_HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0',
  });
  let now = Date.UTC(2026, 10, 1);
  const clock = { now: () => now };
  void clock;
  const deps = await createSqliteBenchDeps(config, { log: silentLogger, clock });
  const node = insertNode(deps, 0, true);
  await deps.front.ensureNode(node.id);
  const step = 3000;
  const span = 8 * 86_400_000;
  const t0 = Date.now();
  const batch: Array<Promise<void>> = [];
  let seq = 0;
  // Straight into the ingest backend: the seeding reports are stamped with past receive times,
  // so the HTTP path's 5 s persistence budget does not apply to them.
  for (let at = now; at < now + span; at += step) {
    const body = Buffer.from(JSON.stringify(agentReport({ seq: seq++ })));
    batch.push(
      deps.ingestBackend
        .process({
          nodeId: node.id,
          receivedAt: at,
          deadline: Number.MAX_SAFE_INTEGER,
          body,
          ip: null,
        })
        .then(() => undefined),
    );
    if (batch.length >= 500) await Promise.all(batch.splice(0));
  }
  await Promise.all(batch);
  now += span;
  // The rollup job materialises a bounded slice per run; run it until it has caught up.
  while ((await deps.ingestBackend.rollup(now)).buckets > 0);
  console.log(
    `history: ${seq} raw samples over 8 days stored in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  const app = buildApp(deps);
  await app.ready();
  const admin = await deps.auth.login(config.adminPassword ?? '', 'session').catch(() => undefined);
  const headers = admin ? { authorization: `Bearer ${admin.accessToken}` } : {};
  if (!admin) {
    await deps.systemSettings.patch({ history_guest_access_mode: 'by_node' });
  }
  for (const range of ['24h', '1w', '15d', '30d']) {
    const times: number[] = [];
    let points = 0;
    for (let i = 0; i < 30; i++) {
      const s = process.hrtime.bigint();
      const res = await app.inject({
        method: 'GET',
        url: `/api/metrics/history?server_id=${node.id}&metric=cpu.usage_ratio&range=${range}`,
        headers,
      });
      times.push(Number(process.hrtime.bigint() - s) / 1e6);
      points = res.json<{ points: unknown[] }>().points.length;
    }
    times.sort((a, b) => a - b);
    console.log(
      `  ${range.padEnd(4)} ${String(points).padStart(5)} points   median ${times[15]!.toFixed(2)} ms   p90 ${times[27]!.toFixed(2)} ms`,
    );
  }
  // The bare decode of the same points: blocks and open rows read for one series, no HTTP, no
  // bucketing (raw history is sealed into blocks by the rollup runs above).
  const source = historySource(deps.raw);
  const cpu = HOST_METRICS.indexOf('cpu.usage_ratio');
  for (const [label, ms] of [
    ['1h', 3_600_000],
    ['24h', 86_400_000],
    ['8d', span],
  ] as const) {
    const times: number[] = [];
    let points = 0;
    for (let i = 0; i < 30; i++) {
      const s = process.hrtime.bigint();
      points = source.hostSeries(node.id, cpu, now - ms, now).length;
      times.push(Number(process.hrtime.bigint() - s) / 1e6);
    }
    times.sort((a, b) => a - b);
    console.log(
      `  decode ${label.padEnd(4)} ${String(points).padStart(6)} raw points   median ${times[15]!.toFixed(2)} ms`,
    );
  }
  await app.close();
  await deps.shutdown();
}

if (process.env.BENCH_SKIP_FRONT !== '1') await frontBench();
if (process.env.BENCH_SKIP_HISTORY !== '1') await historyBench();
