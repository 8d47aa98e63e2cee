/**
 * What the current projection costs PostgreSQL per report (docs/postgresql.md "The live
 * projection"): `PgMetricsEngine` alone, `BENCH_NODES` nodes reporting every 3 s of simulated
 * time for `BENCH_ROUNDS` rounds, with realistic projection documents (runtime view, SMART,
 * thermal and pressure payloads, about 4 KB together). Two runs on fresh schemas of the test
 * server (POSTGRES_TEST_URL):
 *
 * - one instance (node_current every 30-45 s, nothing else shared): the baseline;
 * - two instances taking alternate reports of every node (node_live with every report, the
 *   node_current and device refreshes shared).
 *
 * Prints per report: WAL bytes (whole server: other sessions count too, so run it alone),
 * table growth by table, CPU of the two PostgreSQL backends; and the two-instance figures as
 * ratios to the baseline.
 *
 *   POSTGRES_TEST_URL=postgres://… npm run bench:pg-projection
 *   BENCH_NODES=2000 BENCH_ROUNDS=30
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import pg from 'pg';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/open.js';
import { PgMetricsEngine } from '../../src/store/postgres/metrics-engine.js';
import type { MetricsWrite } from '../../src/store/ports.js';
import { metricsWrite } from '../../test/support/metrics-writes.js';
import { freshSchema } from '../../test/support/postgres.js';

const NODES = Number(process.env.BENCH_NODES ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const BATCH = 500;
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** Projection documents of the sizes a real agent's report gives (about 4 KB together). */
function documents(nodeId: number, seq: number) {
  const disks = Array.from({ length: 4 }, (_, i) => ({
    name: `sd${'abcd'[i]}`,
    model: 'SAMSUNG MZ7LH960HAJR-00005',
    serial: `S45NNA0M${nodeId}${i}`,
    temperature_c: 30 + ((nodeId + i + seq) % 9),
    power_on_hours: 20_000 + nodeId,
    attributes: Array.from({ length: 6 }, (_, k) => ({ id: k + 1, raw: seq * k, worst: 100 })),
  }));
  return {
    runtimeJson: JSON.stringify({
      seq,
      cpu: { usage: (seq % 100) / 100, l1: 0.5, l5: 0.4, l15: 0.3 },
      memory: { total: 64e9, used: 31e9 + seq, available: 30e9, cached: 2e9, swapTotal: 0 },
      mounts: Array.from({ length: 6 }, (_, i) => ({ label: `/srv/data${i}`, used: seq * i })),
      network: {
        by_interface: Array.from({ length: 4 }, (_, i) => ({
          name: `eth${i}`,
          bytes_recv: seq * 1e6 + i,
          bytes_sent: seq * 2e6 + i,
          recv_bps: 1e5 * i,
          sent_bps: 2e5 * i,
        })),
      },
      processes: 312,
      tcp: 40 + (seq % 7),
      udp: 9,
    }),
    smartJson: JSON.stringify(disks),
    thermalJson: JSON.stringify(
      Array.from({ length: 12 }, (_, i) => ({ sensor: `coretemp_core_${i}`, c: 40 + (seq % 5) })),
    ),
    pressureJson: JSON.stringify({
      cpu: { some: { avg10: 0.1, avg60: 0.2, avg300: 0.3 } },
      memory: { some: { avg10: 0 }, full: { avg10: 0 } },
      io: { some: { avg10: seq % 3 }, full: { avg10: 0 } },
    }),
  };
}

function write(nodeId: number, at: number, seq: number): MetricsWrite {
  const w = metricsWrite(nodeId, at, { seq, deadline: at + 1e12 });
  w.current = { ...w.current, ...documents(nodeId, seq) };
  return w;
}

interface Figures {
  walPerReport: number;
  growth: Record<string, number>;
  cpuUsPerReport: number;
}

async function run(instances: 1 | 2): Promise<Figures> {
  const { url, drop } = await freshSchema();
  const T0 = Date.UTC(2026, 10, 25);
  let now = T0;
  const stores: PostgresStore[] = [];
  for (let i = 0; i < instances; i++) stores.push(await openPostgresStore(url, T0, { max: 1 }));
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await admin.query(
      `INSERT INTO nodes (id, name, secret_enc, created_at, updated_at)
       SELECT g, 'n', 'x', 0, 0 FROM generate_series(1, $1::int) g`,
      [NODES],
    );
    const engines = stores.map(
      (s) => new PgMetricsEngine(s.pool, () => now, s.partitions, undefined, instances > 1),
    );
    const pids: number[] = [];
    for (const s of stores)
      pids.push((await s.pool.query<{ p: number }>('SELECT pg_backend_pid() AS p')).rows[0]!.p);
    const cpuTicks = () =>
      pids.reduce((n, pid) => {
        const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        return n + Number(f[11]) + Number(f[12]);
      }, 0);
    const sizes = async () =>
      Object.fromEntries(
        (
          await admin.query<{ name: string; b: number }>(
            `SELECT c.relname AS name, pg_total_relation_size(c.oid)::float8 AS b
             FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace
             AND c.relkind = 'r'`,
          )
        ).rows.map((r) => [r.name, r.b]),
      );
    const lsn = async () =>
      (await admin.query<{ l: string }>('SELECT pg_current_wal_lsn()::text AS l')).rows[0]!.l;
    // First report of every node: device dictionary and projections exist before measuring.
    for (let i = 1; i <= NODES; i += BATCH) {
      const n = Math.min(BATCH, NODES - i + 1);
      await engines[0]!.commitBatch(Array.from({ length: n }, (_, k) => write(i + k, now, 0)));
    }
    const [s0, l0, c0] = [await sizes(), await lsn(), cpuTicks()];
    for (let r = 1; r <= ROUNDS; r++) {
      now = T0 + r * 3000;
      const writes = Array.from({ length: NODES }, (_, k) => write(k + 1, now + (k % 1000), r));
      await Promise.all(
        engines.map(async (engine, e) => {
          const mine = writes.filter((w) => (w.nodeId + r) % instances === e);
          for (let i = 0; i < mine.length; i += BATCH)
            await engine.commitBatch(mine.slice(i, i + BATCH));
        }),
      );
    }
    const reports = NODES * ROUNDS;
    const wal = (
      await admin.query<{ d: string }>(
        'SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn) AS d',
        [l0],
      )
    ).rows[0]!.d;
    const s1 = await sizes();
    const growth: Record<string, number> = {};
    for (const [t, b] of Object.entries(s1)) {
      const g = (b - (s0[t] ?? 0)) / reports;
      if (g >= 1) growth[t] = g;
    }
    return {
      walPerReport: Number(wal) / reports,
      growth,
      cpuUsPerReport: ((cpuTicks() - c0) * 10_000) / reports,
    };
  } finally {
    await admin.end();
    for (const s of stores) await s.close();
    await drop();
  }
}

async function main(): Promise<void> {
  console.log(
    `projection writes: ${NODES} nodes × ${ROUNDS} rounds of 3 s (simulated); load average ${load()}`,
  );
  const show = (label: string, f: Figures) => {
    const tables = Object.entries(f.growth)
      .sort((a, b) => b[1] - a[1])
      .map(([t, g]) => `${t} ${g.toFixed(0)}`)
      .join(', ');
    console.log(
      `${label.padEnd(14)} WAL ${f.walPerReport.toFixed(0)} B/report, PostgreSQL CPU ${f.cpuUsPerReport.toFixed(0)} µs/report, growth B/report: ${tables || 'none'}`,
    );
  };
  const one = await run(1);
  show('one instance', one);
  const two = await run(2);
  show('two instances', two);
  const sum = (f: Figures) => Object.values(f.growth).reduce((a, b) => a + b, 0);
  console.log(
    `two instances / one: WAL ${(two.walPerReport / one.walPerReport).toFixed(2)}×, ` +
      `growth ${(sum(two) / sum(one)).toFixed(2)}×, CPU ${(two.cpuUsPerReport / one.cpuUsPerReport).toFixed(2)}×; load average ${load()}`,
  );
}

await main();
