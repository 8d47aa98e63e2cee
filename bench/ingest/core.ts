/**
 * The ingest worker's pipeline alone, without HTTP or threads: realistic reports for many nodes
 * go through IngestCore.processBatch (decode, validate, derive views, commit) on a file database
 * in batches of 64, as the worker receives them. Prints µs per report, total and per stage, so a
 * change to the pipeline can be judged in seconds (`npm run bench:ingest-core`; add
 * `-- --cpu-prof` after node options to profile).
 *
 *   npm run bench:ingest-core [-- --nodes 10000 --reports 60000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openSqliteConnection } from '../../src/store/sqlite/connection.js';
import { nodeReportDecoder } from '../../src/protocol/decode-node-report.js';
import { validateMetricsReport } from '../../src/domain/ingest/validate-metrics.js';
import { createIngestHost } from '../../src/workers/ingest-host.js';
import { agentReport } from '../../test/support/agent-payloads.js';
import { seedNodes } from '../../test/support/seed-home.js';

const { values: args } = parseArgs({
  options: {
    nodes: { type: 'string', default: '10000' },
    reports: { type: 'string', default: '60000' },
  },
});
const NODES = Number(args.nodes);
const REPORTS = Number(args.reports);
const BATCH = 64;

const home = mkdtempSync(join(tmpdir(), 'dash-core-'));
try {
  await seedNodes(home, NODES);
  // As on the worker: COMMIT does not wait for the disk (the WAL is synced apart).
  const db = openSqliteConnection(join(home, 'dash.db'), 'ingest');
  let now = Date.now();
  const host = createIngestHost(db, () => now, 15);
  // Render facts as the front state sends them, so views are rendered here as in production.
  for (let id = 1; id <= NODES; id++) {
    host.core.setFacts(id, {
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
  let next = 0;
  const batch = () =>
    Array.from({ length: BATCH }, () => {
      const i = next++;
      now += 0.3;
      const receivedAt = Math.floor(now);
      return {
        nodeId: (i % NODES) + 1,
        receivedAt,
        deadline: receivedAt + 5000,
        body: bodies[Math.floor(i / NODES) % bodies.length],
        ip: '10.0.0.1',
      };
    });

  // Warm-up: every node once (device dictionary, first current rows), not measured.
  while (next < NODES) host.core.processBatch(batch());

  const started = performance.now();
  let ok = 0;
  let measured = 0;
  while (next < NODES + REPORTS) {
    for (const r of host.core.processBatch(batch())) {
      measured++;
      if (r.ok) ok++;
    }
  }
  const total = (performance.now() - started) * 1000;

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
  console.log(
    `stages: decode ${decodeUs.toFixed(1)} µs (bare JSON.parse ${jsonParseUs.toFixed(1)}), validate ${validateUs.toFixed(1)} µs`,
  );
  db.close();
} finally {
  rmSync(home, { recursive: true, force: true });
}
