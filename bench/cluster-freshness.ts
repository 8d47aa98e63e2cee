/**
 * Freshness between two Dash instances on one PostgreSQL: instance A commits realistic reports
 * (the PostgreSQL ingest engine, node_current rewritten per report as with several instances)
 * at a target rate and publishes the node ids (ClusterSync, LISTEN/NOTIFY); instance B re-reads
 * them into its front view. Prints A's committed reports/s and, per report, how long after its
 * COMMIT returned on A the same report was on B's front view (p50/p95/p99/max). Both instances
 * run in this one process (one event loop: a pessimistic figure). The load average is printed
 * at the start and the end.
 *
 *   npm run bench:cluster [-- --nodes 2000 --rate 1000 --seconds 15]
 *   POSTGRES_TEST_URL=postgres://… selects the server (a scratch schema is made and dropped).
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { ClusterSync } from '../src/domain/cluster/cluster-sync.js';
import { FrontState } from '../src/domain/front/front-state.js';
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
  },
});
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
  const lags: number[] = [];
  const followers = (i: typeof a) => ({
    front: {
      load: () => i.front.load(),
      refreshCurrent: async (ids: readonly number[]) => {
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
      syncA.reportApplied(w.nodeId);
    }
    sent += writes.length;
  }
  const elapsed = (performance.now() - started) / 1000;
  await syncA.flush();
  await new Promise((r) => setTimeout(r, 500));
  await syncB.flush();
  lags.sort((x, y) => x - y);
  const q = (p: number) =>
    (lags[Math.min(lags.length - 1, Math.floor(p * lags.length))] ?? NaN).toFixed(1);
  console.log(
    `nodes ${NODES}, target ${RATE} reports/s: committed ${(sent / elapsed).toFixed(0)} reports/s on A`,
  );
  console.log(
    `on B's front view after A's COMMIT (${lags.length} reports seen): p50 ${q(0.5)} ms, p95 ${q(0.95)} ms, p99 ${q(0.99)} ms, max ${q(1)} ms`,
  );
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
