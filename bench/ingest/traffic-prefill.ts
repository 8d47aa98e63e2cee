/**
 * A day (or `hours`) of 5-minute traffic facts for every node and interface, written straight
 * in SQL before a bench run: `traffic_5m` past its first hours has a leaf per node and
 * interface, as a server that has run a day has; an empty one shares leaves between neighbours
 * and hides what a flush costs there (docs/ingest-disk-writes.md, "The steady state").
 */
import { openSqliteConnection } from '../../src/store/sqlite/connection.js';

/** The interfaces of the bench's agent reports (test/support/agent-payloads.ts). */
export const BENCH_IFACES = ['eth0', 'eth1', 'docker0'] as const;

/** Writes the facts of nodes 1..`nodes` for the `hours` before `end` (a bucket start). */
export function prefillTrafficFacts(file: string, nodes: number, hours: number, end: number): void {
  const db = openSqliteConnection(file);
  try {
    db.prepare(
      `WITH RECURSIVE n(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM n WHERE id < ?),
         b(t) AS (SELECT ? UNION ALL SELECT t + 300000 FROM b WHERE t + 300000 < ?),
         i(name) AS (VALUES ${BENCH_IFACES.map((n) => `('${n}')`).join(', ')})
       INSERT INTO traffic_5m (node_id, iface, bucket, in_bytes, out_bytes, valid_in, valid_out,
         valid_ms, gap_count, reset_count)
       SELECT n.id, i.name, b.t, 375000000, 180000000, 1, 1, 300000, 0, 0 FROM n, i, b`,
    ).run(nodes, end - hours * 3_600_000, end);
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

/** The facts of the `hours` before the bucket a real-time run starts in, timed. */
export function prefillBeforeRun(file: string, nodes: number, hours: number): void {
  const t = performance.now();
  // Dash runs on the machine's clock: the run's reports add to the buckets after these.
  prefillTrafficFacts(file, nodes, hours, Math.floor(Date.now() / 300_000) * 300_000);
  const s = ((performance.now() - t) / 1000).toFixed(0);
  console.log(`prefilled ${hours} h of traffic facts for ${nodes} nodes in ${s} s`);
}
