/**
 * The ingest worker's pipeline alone, without HTTP or threads: realistic reports for many nodes
 * go through IngestCore.processBatch (decode, validate, derive views, commit) on a file database
 * in batches of 64, as the worker receives them. Prints µs per report, total and per stage, so a
 * change to the pipeline can be judged in seconds (`npm run bench:ingest-core`; add
 * `-- --cpu-prof` after node options to profile).
 *
 *   npm run bench:ingest-core [-- --nodes 10000 --reports 60000 --batch 64]
 *   npm run bench:ingest-core -- --autocheckpoint 10000   try another wal_autocheckpoint
 *   npm run bench:ingest-core -- --open-log   reports go to the open-block log (one fdatasync
 *     per batch, plus the WAL's when a batch wrote new devices) instead of metrics_raw
 *   npm run bench:ingest-core -- --open-log --seal   then seals the log as the worker does
 *     (blocks and every node's newest projection, in short transactions with a batch of reports
 *     committed between them) and prints how long commits were held; `--seal-step-bytes
 *     Infinity` seals in one transaction, as before
 *
 * After each batch the WAL is synced as the worker does, and the bytes this process caused to be
 * written to storage (/proc/self/io write_bytes: WAL frames, checkpoints, fsync'd pages) are
 * reported per report.
 */
import { fdatasyncSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openSqliteConnection } from '../../src/store/sqlite/connection.js';
import { nodeReportDecoder } from '../../src/protocol/decode-node-report.js';
import { validateMetricsReport } from '../../src/domain/ingest/validate-metrics.js';
import { createIngestHost } from '../../src/workers/ingest-host.js';
import { IngestCore } from '../../src/domain/ingest/ingest-core.js';
import { OpenLogFile } from '../../src/store/sqlite/open-log.js';
import { OpenLogCommitter } from '../../src/store/sqlite/open-log-committer.js';
import { ROTATE_STEP_BYTES, planSeal } from '../../src/store/sqlite/open-logs.js';
import { SEAL_STEP_BYTES } from '../../src/store/sqlite/open-log-seal.js';
import { DEFAULT_SEAL_MS, SEAL_GRACE_MS } from '../../src/store/sqlite/history-blocks.js';
import { encodeProjection, encodeSample } from '../../src/store/history-blocks/open-log-record.js';
import { HOST_COLUMNS } from '../../src/store/sqlite/metrics-codec.js';
import { agentReport } from '../../test/support/agent-payloads.js';
import { seedNodes } from '../../test/support/seed-home.js';
import { threadCpu } from './proc-stats.js';

const { values: args } = parseArgs({
  options: {
    nodes: { type: 'string', default: '10000' },
    reports: { type: 'string', default: '60000' },
    batch: { type: 'string', default: '64' },
    autocheckpoint: { type: 'string' },
    'open-log': { type: 'boolean', default: false },
    seal: { type: 'boolean', default: false },
    /** Bytes per seal transaction (default SEAL_STEP_BYTES; "Infinity": one transaction). */
    'seal-step-bytes': { type: 'string' },
  },
});
const NODES = Number(args.nodes);
const REPORTS = Number(args.reports);
const BATCH = Number(args.batch);

/** Bytes this process has caused to be written to storage so far. */
const writtenBytes = (): number =>
  Number(/write_bytes:\s+(\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? 0);

const home = mkdtempSync(join(tmpdir(), 'dash-core-'));
try {
  await seedNodes(home, NODES);
  // As on the worker: COMMIT does not wait for the disk (the WAL is synced apart).
  const db = openSqliteConnection(join(home, 'dash.db'), 'ingest');
  if (args.autocheckpoint) db.pragma(`wal_autocheckpoint = ${Number(args.autocheckpoint)}`);
  const walSync = (): void => {
    // As the worker: every batch's answers wait for one fdatasync of the WAL.
    const fd = openSync(join(home, 'dash.db-wal'), 'r');
    try {
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
  };
  let now = Date.now();
  const host = createIngestHost(db, () => now, 15);
  const log = args['open-log']
    ? OpenLogFile.open(join(home, 'dash.db-open-0'), { shard: 0, from: 0 })
    : undefined;
  const committer = log ? new OpenLogCommitter(db, log, () => now) : undefined;
  const core = committer
    ? new IngestCore(nodeReportDecoder(), committer, () => now, 15)
    : host.core;
  // Render facts as the front state sends them, so views are rendered here as in production.
  for (let id = 1; id <= NODES; id++) {
    core.setFacts(id, {
      os: 'linux',
      platform: 'debian',
      platformVersion: '12.8',
      kernelVersion: '6.1.0-28-amd64',
      arch: 'amd64',
      static: {
        cpu: {
          modelName: 'Intel(R) Xeon(R) E-2276G',
          sockets: 1,
          coresPhysical: 6,
          coresLogical: 12,
        },
        memory: { total: 16 * 1024 ** 3, swapTotal: 2 * 1024 ** 3 },
        raid: { supported: true, available: true },
        root: { path: '/', fsType: 'ext4', total: 500 * 1024 ** 3 },
      },
    });
  }
  const bodies = Array.from(
    { length: 32 },
    (_, seq) => new Uint8Array(Buffer.from(JSON.stringify(agentReport({ seq })))),
  );
  // Nodes report on their own phase: each round arrives in the same shuffled order, so a batch
  // touches nodes spread over the whole id range (as in production), not neighbours.
  const order = Array.from({ length: NODES }, (_, i) => i + 1);
  let seed = 12345;
  for (let i = order.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  let next = 0;
  const batch = () =>
    Array.from({ length: BATCH }, () => {
      const i = next++;
      now += 0.3;
      const receivedAt = Math.floor(now);
      return {
        nodeId: order[i % NODES]!,
        receivedAt,
        deadline: receivedAt + 5000,
        body: bodies[Math.floor(i / NODES) % bodies.length],
        ip: '10.0.0.1',
      };
    });

  // Warm-up: every node once (device dictionary, first current rows), not measured.
  while (next < NODES) core.processBatch(batch());

  walSync();
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  const threads0 = threadCpu(process.pid);
  const written0 = writtenBytes();
  let ok = 0;
  let measured = 0;
  while (next < NODES + REPORTS) {
    for (const r of core.processBatch(batch())) {
      measured++;
      if (r.ok) ok++;
    }
    if (log) log.syncNow();
    if (!committer || committer.sqliteWritten) walSync();
  }
  const total = (performance.now() - started) * 1000;
  const cpu = process.cpuUsage(cpu0);
  const threads = threadCpu(process.pid);
  const written = writtenBytes() - written0;

  // Stage costs on the same bodies, outside the pipeline.
  const decode = nodeReportDecoder();
  const stage = (fn: () => void, n = 5000) => {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) fn();
    return ((performance.now() - t0) * 1000) / n;
  };
  let k = 0;
  const body = () => bodies[k++ % bodies.length]!;
  const decodeUs = stage(() => decode(body()));
  const parsed = bodies.map((b) => decode(b));
  const validateUs = stage(() => validateMetricsReport(parsed[k++ % parsed.length]!));
  const jsonParseUs = stage(() => void JSON.parse(Buffer.from(body()).toString('utf8')));

  console.log(`ingest core: ${NODES} nodes, ${ok}/${measured} reports stored`);
  console.log(`pipeline: ${(total / measured).toFixed(1)} µs/report (batches of ${BATCH})`);
  // CPU of every thread of this process (V8's GC helpers included): moves less with the load.
  console.log(
    `CPU: ${((cpu.user + cpu.system) / measured).toFixed(1)} µs/report (user ${(cpu.user / measured).toFixed(1)}, system ${(cpu.system / measured).toFixed(1)}); by thread ${[
      ...threads,
    ]
      .map(([k, v]) => [k, ((v - (threads0.get(k) ?? 0)) * 1e6) / measured] as const)
      .filter(([, us]) => us >= 1)
      .sort((a, b) => b[1] - a[1])
      .map(([k, us]) => `${k.split(' ')[1]} ${us.toFixed(0)}`)
      .join(', ')} (the others: V8's GC and compiler helpers)`,
  );
  console.log(
    `disk writes: ${(written / Math.max(1, ok) / 1024).toFixed(2)} KiB/report (${log ? 'open-block log, ' : ''}wal_autocheckpoint ${String(db.pragma('wal_autocheckpoint', { simple: true }))})`,
  );
  if (args.seal && log && committer) {
    // Every window closed: the whole log is sealed, as a rollup does after its windows end; a
    // batch of reports is committed between steps, as the worker does.
    const sealAt = now + DEFAULT_SEAL_MS + SEAL_GRACE_MS;
    const stepBytes = args['seal-step-bytes'] ? Number(args['seal-step-bytes']) : undefined;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const w0 = writtenBytes();
    const run = planSeal(db, log, committer.index, 0, sealAt, DEFAULT_SEAL_MS, stepBytes);
    let steps = 0;
    let longest = 0;
    let during = 0;
    for (;;) {
      const s0 = performance.now();
      const more = run?.step() ?? false;
      longest = Math.max(longest, performance.now() - s0);
      if (!more) break;
      steps++;
      during += core.processBatch(batch()).filter((r) => r.ok).length;
      log.syncNow();
    }
    const f0 = performance.now();
    const r = run?.finish();
    const finishMs = performance.now() - f0;
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    console.log(
      `seal: ${r?.projections ?? 0} projections, ${r?.points ?? 0} points in ${r?.blocks ?? 0} blocks, ` +
        `${steps} steps (node ranges of ≤ ${stepBytes ?? SEAL_STEP_BYTES} B, then copies of ≤ ${ROTATE_STEP_BYTES} B of the log) ` +
        `with ${during} reports committed between them`,
    );
    console.log(
      `seal pause max ${Math.max(longest, finishMs).toFixed(0)} ms (longest step ${longest.toFixed(0)} ms, ` +
        `last step: watermark and rename ${finishMs.toFixed(0)} ms); whole seal ${ms.toFixed(0)} ms, ` +
        `CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, disk writes ${((writtenBytes() - w0) / 1048576).toFixed(1)} MiB`,
    );
  }
  console.log(
    `stages: decode ${decodeUs.toFixed(1)} µs (bare JSON.parse ${jsonParseUs.toFixed(1)}), validate ${validateUs.toFixed(1)} µs`,
  );
  // What the same reports would cost as open-block log records (docs/ingest-disk-writes.md).
  const raw = db
    .prepare(
      `SELECT node_id, received_at, ${HOST_COLUMNS.join(', ')}, devices FROM metrics_raw LIMIT 5000`,
    )
    .raw(true)
    .all() as unknown[][];
  const sampleBytes =
    raw.reduce<number>(
      (n, r) =>
        n +
        encodeSample({
          node: r[0] as number,
          at: r[1] as number,
          host: r.slice(2, 2 + HOST_COLUMNS.length) as Array<number | null>,
          devices: (r[2 + HOST_COLUMNS.length] as Uint8Array | null) ?? new Uint8Array(0),
        }).length,
      0,
    ) / Math.max(1, raw.length);
  const current = db
    .prepare(
      'SELECT node_id, received_at, reported_at, runtime_json, smart_json, thermal_json, pressure_json FROM node_current LIMIT 1000',
    )
    .raw(true)
    .all() as Array<[number, number, number, string, string | null, string | null, string | null]>;
  let jsonBytes = 0;
  let projectionBytes = 0;
  for (const c of current) {
    jsonBytes += c[3].length + (c[4]?.length ?? 0) + (c[5]?.length ?? 0) + (c[6]?.length ?? 0);
    projectionBytes += encodeProjection({
      node: c[0],
      at: c[1],
      reportedAt: c[2],
      runtimeJson: c[3],
      smartJson: c[4],
      thermalJson: c[5],
      pressureJson: c[6],
    }).length;
  }
  const n = Math.max(1, current.length);
  console.log(
    `open-log records: sample ${sampleBytes.toFixed(0)} B + 8 B frame; projection ${(projectionBytes / n).toFixed(0)} B (JSON ${(jsonBytes / n).toFixed(0)} B)`,
  );
  db.close();
} finally {
  rmSync(home, { recursive: true, force: true });
}
