/**
 * Freshness between two Dash instances on one PostgreSQL: instance A commits realistic reports
 * (the PostgreSQL ingest engine, node_current rewritten per report as with several instances)
 * at a target rate and publishes the node ids (ClusterSync, LISTEN/NOTIFY); instance B re-reads
 * them into its front view. Prints A's committed reports/s and, per report, how long after its
 * COMMIT returned on A the same report was on B's front view (p50/p95/p99/max). Both instances
 * run in this one process (one event loop: a pessimistic figure). The load average is printed
 * at the start and the end.
 *
 * With `--poll MS`, B's front snapshot (GET /api/front/metrics' cache, admin) is read every MS
 * milliseconds, as a dashboard polls: printed are how long each read took and, per read, the
 * oldest report A had acknowledged before the read began that it did not show. `--lazy` makes
 * B follow as an instance that is not the alert leader does (notes the nodes, reads them when
 * its views are read: FrontState.follow), so the reads pay the catch-up; `--read-ahead` makes
 * it lazy and reading ahead while it is read (FrontState.readAheadOfReaders), as `dash serve`
 * does. Each poll also reads A's snapshot right after B's: A installed every report itself, as
 * a single SQLite instance does, so its read is the front read of the same data without any
 * catch-up (the front state is the same code on both engines).
 *
 *   npm run bench:cluster [-- --nodes 2000 --rate 1000 --seconds 15 --poll 1000 --lazy|--read-ahead]
 *   POSTGRES_TEST_URL=postgres://… selects the server (a scratch schema is made and dropped).
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { ClusterSync } from '../src/domain/cluster/cluster-sync.js';
import { FrontState } from '../src/domain/front/front-state.js';
import { FrontMetricsCache } from '../src/http/routes/front/metrics-cache.js';
import { systemClock } from '../src/platform/clock.js';
import { runtimeView } from '../src/domain/front/runtime-view.js';
import { validateMetricsReport } from '../src/domain/ingest/validate-metrics.js';
import { NodeEvents } from '../src/domain/nodes/node-events.js';
import { PgMetricsEngine } from '../src/store/postgres/metrics-engine.js';
import { PgBus } from '../src/store/postgres/notify.js';
import { openPostgresStore } from '../src/store/postgres/open.js';
import { agentReport } from '../test/support/agent-payloads.js';
import { metricsWrite } from '../test/support/metrics-writes.js';
import { freshSchema } from '../test/support/postgres.js';

const { values: args } = parseArgs({
  options: {
    nodes: { type: 'string', default: '2000' },
    rate: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '15' },
    poll: { type: 'string', default: '0' },
    lazy: { type: 'boolean', default: false },
    'read-ahead': { type: 'boolean', default: false },
  },
});
const LAZY = args.lazy || args['read-ahead'];
const MODE = args['read-ahead'] ? 'read-ahead' : args.lazy ? 'lazy' : 'eager';
const POLL_MS = Number(args.poll);
const NODES = Number(args.nodes);
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const BATCH = 64;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

console.log(`load average at start: ${load()}`);
const schema = await freshSchema();
const channel = `dash_bench_${randomBytes(4).toString('hex')}`;
const noop = () => {};
const onError = (err: unknown) => console.error(err);

async function instance(name: string) {
  const store = await openPostgresStore(schema.url, Date.now(), { max: 4 });
  const front = new FrontState({ repo: store.front, staleAfterSec: 30, warn: noop });
  await front.load();
  const bus = new PgBus(schema.url, store.pool);
  return { name, store, front, bus };
}

try {
  const a = await instance('a');
  await a.store.pool.query(
    `INSERT INTO nodes (id, name, secret_enc, created_at, updated_at)
     SELECT i, 'n' || i, 'x', 0, 0 FROM generate_series(1, $1) AS i`,
    [NODES],
  );
  await a.front.load();
  const b = await instance('b');
  /** Per node: receive time of A's last committed report and when its COMMIT returned. */
  const acked = new Map<number, { receivedAt: number; at: number }>();
  /** Per node: A's recent reports (receive time, COMMIT returned), oldest first. */
  const recent = new Map<number, Array<{ receivedAt: number; at: number }>>();
  const lags: number[] = [];
  const followers = (i: typeof a) => ({
    front: {
      load: () => i.front.load(),
      refreshCurrent: async (ids: readonly number[]) => {
        if (LAZY && i === b) {
          i.front.follow(ids);
          return [];
        }
        const changed = await i.front.refreshCurrent(ids);
        const now = performance.now();
        for (const id of changed) {
          const sent = acked.get(id);
          if (sent && i.front.receivedAt(id) === sent.receivedAt) lags.push(now - sent.at);
        }
        return changed;
      },
    },
    nodeEvents: new NodeEvents(),
    reloadSecrets: async () => {},
    auth: { remoteChange: async () => {}, load: async () => {} },
    limiters: {},
    settings: {},
  });
  const sync = (i: typeof a) =>
    new ClusterSync({
      bus: i.bus,
      channel,
      instanceId: i.name,
      onError,
      followers: followers(i),
    });
  const [syncA, syncB] = [sync(a), sync(b)];
  await syncA.start();
  await syncB.start();

  // The dashboard's poll on B: how long each read takes, and how stale what it shows is.
  const polls: number[] = [];
  const stale: number[] = [];
  const local: number[] = [];
  const cache = new FrontMetricsCache(b.front, systemClock);
  const cacheA = new FrontMetricsCache(a.front, systemClock);
  if (args['read-ahead']) b.front.readAheadOfReaders({ clock: systemClock });
  let polling = POLL_MS > 0;
  const poller = (async () => {
    while (polling) {
      await new Promise((r) => setTimeout(r, POLL_MS));
      const began = performance.now();
      await cache.get('admin');
      polls.push(performance.now() - began);
      let oldest = 0;
      for (const [id, list] of recent) {
        const shown = b.front.receivedAt(id) ?? 0;
        const missed = list.find((r) => r.receivedAt > shown && r.at < began);
        if (missed) oldest = Math.max(oldest, began - missed.at);
      }
      stale.push(oldest);
      const localBegan = performance.now();
      await cacheA.get('admin');
      local.push(performance.now() - localBegan);
    }
  })();

  const engine = new PgMetricsEngine(a.store.pool, Date.now, a.store.partitions, undefined, true);
  const v = validateMetricsReport(agentReport());
  let sent = 0;
  let next = 1;
  const started = performance.now();
  const end = started + SECONDS * 1000;
  while (performance.now() < end) {
    const due = Math.floor(((performance.now() - started) / 1000) * RATE);
    if (due - sent < BATCH) {
      await new Promise((r) => setTimeout(r, 5));
      continue;
    }
    const writes = [];
    for (let k = 0; k < BATCH; k++) {
      const nodeId = next;
      next = (next % NODES) + 1;
      const w = metricsWrite(nodeId, Date.now(), { seq: sent + k });
      w.current.runtime = runtimeView(v.metrics, w.receivedAt, v.reportedAt, 'x');
      writes.push(w);
    }
    await engine.commitBatch(writes);
    const at = performance.now();
    for (const w of writes) {
      a.front.apply(w.nodeId, w.current.runtime as never, w.current);
      acked.set(w.nodeId, { receivedAt: w.receivedAt, at });
      const list = recent.get(w.nodeId) ?? [];
      list.push({ receivedAt: w.receivedAt, at });
      if (list.length > 4) list.shift();
      recent.set(w.nodeId, list);
      syncA.reportApplied(w.nodeId);
    }
    sent += writes.length;
  }
  const elapsed = (performance.now() - started) / 1000;
  polling = false;
  await poller;
  await syncA.flush();
  await new Promise((r) => setTimeout(r, 500));
  await syncB.flush();
  const q = (p: number, of = lags) => {
    const sorted = [...of].sort((x, y) => x - y);
    return (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN).toFixed(1);
  };
  console.log(
    `nodes ${NODES}, target ${RATE} reports/s: committed ${(sent / elapsed).toFixed(0)} reports/s on A`,
  );
  if (!LAZY) {
    console.log(
      `on B's front view after A's COMMIT (${lags.length} reports seen): p50 ${q(0.5)} ms, p95 ${q(0.95)} ms, p99 ${q(0.99)} ms, max ${q(1)} ms`,
    );
  }
  if (polls.length > 0) {
    console.log(
      `B ${MODE}, ${polls.length} snapshot reads every ${POLL_MS} ms: took p50 ${q(0.5, polls)} ms, p95 ${q(0.95, polls)} ms, p99 ${q(0.99, polls)} ms, max ${q(1, polls)} ms; oldest report not shown p50 ${q(0.5, stale)} ms, max ${q(1, stale)} ms`,
    );
    console.log(
      `A (installs every report itself, as SQLite): snapshot read took p50 ${q(0.5, local)} ms, p95 ${q(0.95, local)} ms, p99 ${q(0.99, local)} ms, max ${q(1, local)} ms`,
    );
  }
  b.front.stopReadingAhead();
  syncA.stop();
  syncB.stop();
  for (const i of [a, b]) {
    await i.bus.close();
    await i.store.close();
  }
} finally {
  await schema.drop();
  console.log(`load average at end: ${load()}`);
}
