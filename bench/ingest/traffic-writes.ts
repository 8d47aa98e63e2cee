/**
 * Disk bytes the traffic collector's flushes write per report (issue 22), alone in one process:
 * `--nodes` nodes with three interfaces each reporting in turn at `--rate` reports/s of
 * simulated time, their counters queued and flushed every `--interval` seconds through the
 * SQLite repository on an ingest-role connection (as on ingest thread 0). After a warm-up
 * flush (first samples), prints write_bytes of /proc/self/io and CPU time per report over
 * `--minutes` of reports, flushed to the end. Compare intervals in one run of the machine:
 *
 *   npm run bench:traffic-writes [-- --nodes 10000 --rate 3000 --minutes 3 --interval 10,60]
 *     [--prefill-hours 24] [--chunk 4096] [--unpaced]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  EARLY_FLUSH_AT,
  FLUSH_CHUNK,
  QUEUE_LIMIT,
  TrafficCollector,
} from '../../src/domain/traffic/collector.js';
import type { NodeCycle } from '../../src/domain/traffic/cycle-bounds.js';
import { silentLogger } from '../../src/platform/logger.js';
import { BACKGROUND_PACE, StepPacer } from '../../src/platform/step-pacer.js';
import { openSqliteConnection } from '../../src/store/sqlite/connection.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { sqliteTrafficRepo } from '../../src/store/sqlite/traffic.js';
import { prefillTrafficFacts } from './traffic-prefill.js';

const { values: args } = parseArgs({
  options: {
    nodes: { type: 'string', default: '10000' },
    rate: { type: 'string', default: '3000' },
    minutes: { type: 'string', default: '3' },
    interval: { type: 'string', default: '10,60' },
    /**
     * Hours of 5-minute facts stored before the run for every interface (written straight in
     * SQL): a table past its first hours has a leaf per node and interface, as a server that
     * has run for a day has; an empty one shares leaves between neighbours and hides that.
     */
    'prefill-hours': { type: 'string', default: '0' },
    /** Samples per transaction (the collector's FLUSH_CHUNK by default). */
    chunk: { type: 'string' },
    /**
     * Chunks at a fixed size, as before the flush was paced; by default a pacer cuts them down
     * while transactions run over its 25 ms, as on ingest thread 0 (its gaps are not waited
     * here: they change no byte written).
     */
    unpaced: { type: 'boolean', default: false },
  },
});
const NODES = Number(args.nodes);
const RATE = Number(args.rate);
const MINUTES = Number(args.minutes);
const PREFILL_H = Number(args['prefill-hours']);
const CHUNK = args.chunk === undefined ? FLUSH_CHUNK : Number(args.chunk);
const PACED = !args.unpaced;
const CYCLE: NodeCycle = { mode: 'calendar_month', startDay: 1, anchorDate: '', zone: 'UTC' };
const T0 = Date.UTC(2026, 10, 24, 12);

const writeBytes = () =>
  Number(/write_bytes: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? 0);
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Nodes in a shuffled order, as real nodes arrive (in id order neighbours share pages). */
function shuffled(n: number): number[] {
  const ids = Array.from({ length: n }, (_, i) => i + 1);
  let seed = 42;
  for (let i = n - 1; i > 0; i--) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = seed % (i + 1);
    [ids[i], ids[j]] = [ids[j] as number, ids[i] as number];
  }
  return ids;
}

/** PREFILL_H hours of facts before T0 for every node and interface of the run. */
function prefill(file: string): void {
  const t = performance.now();
  prefillTrafficFacts(file, NODES, PREFILL_H, T0);
  console.log(
    `prefilled ${PREFILL_H} h of facts in ${((performance.now() - t) / 1000).toFixed(0)} s`,
  );
}

async function run(intervalS: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'dash-traffic-writes-'));
  const file = join(dir, 'dash.db');
  await openSqliteStore(file, T0).close();
  if (PREFILL_H > 0) prefill(file);
  const db = openSqliteConnection(file, 'ingest');
  const repo = sqliteTrafficRepo(db);
  /** Each transaction's time: what an ingest thread (and the write slot) is held for. */
  const steps: number[] = [];
  const pacer = PACED
    ? new StepPacer(
        () => performance.now(),
        () => new Promise(setImmediate),
        BACKGROUND_PACE,
      )
    : undefined;
  let smallest = 1;
  const collector = new TrafficCollector(
    repo,
    async () => CYCLE,
    silentLogger,
    async (batch) => {
      const t = performance.now();
      await repo.apply(batch);
      const ms = performance.now() - t;
      steps.push(ms);
      return ms;
    },
    { earlyFlushAt: EARLY_FLUSH_AT, queueLimit: QUEUE_LIMIT, flushChunk: CHUNK },
    pacer,
  );
  const order = shuffled(NODES);
  let next = 0;
  let sent = 0;
  /** Queues `seconds` of reports from simulated time `from` (s). */
  const feed = (from: number, seconds: number) => {
    for (let s = from; s < from + seconds; s++) {
      for (let k = 0; k < RATE; k++) {
        const nodeId = order[next] as number;
        next = (next + 1) % NODES;
        const at = T0 + s * 1000 + Math.floor((k * 1000) / RATE);
        const c = at - T0;
        collector.enqueue({
          nodeId,
          receivedAt: at,
          ifaces: [
            { name: 'eth0', rx: c * 1250 + nodeId, tx: c * 600 },
            { name: 'eth1', rx: c * 7, tx: c * 3 },
            { name: 'docker0', rx: c, tx: c },
          ],
        });
        sent++;
      }
    }
  };
  // Warm-up: every node's first samples and rows exist before the measured window.
  const warm = Math.ceil(NODES / RATE) * 2;
  feed(0, warm);
  await collector.flush();
  db.pragma('wal_checkpoint(TRUNCATE)');
  sent = 0;
  steps.length = 0;
  const w0 = writeBytes();
  const c0 = cpuMs();
  for (let s = warm; s < warm + MINUTES * 60; s += intervalS) {
    feed(s, intervalS);
    await collector.flush();
    smallest = Math.min(smallest, collector.lastFlush.smallestScale);
  }
  const kib = (writeBytes() - w0) / 1024 / sent;
  const us = ((cpuMs() - c0) * 1000) / sent;
  steps.sort((a, b) => a - b);
  const p99 = steps[Math.floor(steps.length * 0.99)] ?? 0;
  console.log(
    `flush every ${String(intervalS).padStart(3)} s: ${kib.toFixed(2)} KiB written per report, ` +
      `${us.toFixed(1)} µs CPU per report (${sent.toLocaleString('en-US')} reports, ` +
      `load average ${loadavg()[0]!.toFixed(2)}); ${steps.length} transactions of up to ` +
      `${CHUNK} samples${PACED ? ` (paced, down to ${smallest} of it)` : ''}: ` +
      `p99 ${p99.toFixed(1)} ms, max ${(steps.at(-1) ?? 0).toFixed(1)} ms`,
  );
  db.close();
  rmSync(dir, { recursive: true, force: true });
}

console.log(
  `traffic flushes: ${NODES} nodes × 3 interfaces, ${RATE} reports/s, ${MINUTES} min; ` +
    `load average ${loadavg()[0]!.toFixed(2)}`,
);
for (const s of String(args.interval).split(',')) await run(Number(s));
