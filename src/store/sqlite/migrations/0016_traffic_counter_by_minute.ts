import type BetterSqlite3 from 'better-sqlite3';
import { counterSlot, encodeCounters, type CounterSampleRow } from '../traffic-counter-codec.js';

/**
 * Traffic counters by minute (issue 22; docs/ingest-disk-writes.md, "Traffic counters by
 * minute"). `traffic_counter` becomes one row per minute of `received_at` and node, its samples
 * a blob (store/sqlite/traffic-counter-codec.ts), clustered by minute first: a flush stores a
 * minute of every node in node order, so it appends contiguous pages where the row per sample,
 * clustered by node and interface, had it rewrite one page per node and interface.
 *
 * `run` moves every stored counter into the new table, then drops the old one.
 */
export const up = [
  `CREATE TABLE traffic_counter_minute (
    slot INTEGER NOT NULL,
    node_id INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (slot, node_id)
  ) STRICT, WITHOUT ROWID`,
];

/** Counters moved per query: a day of one interface (a statement cannot run while another
 * iterates on the connection, so the old rows are read in bounded slices). */
const DAY_MS = 86_400_000;

export function run(db: BetterSqlite3.Database): void {
  const insert = db.prepare(
    'INSERT INTO traffic_counter_minute (slot, node_id, data) VALUES (?, ?, ?)',
  );
  const ifaces = db.prepare(
    `SELECT node_id, iface, min(received_at) AS lo, max(received_at) AS hi FROM traffic_counter
     GROUP BY node_id, iface ORDER BY node_id, iface`,
  );
  const slice = db.prepare(
    `SELECT received_at AS at, rx, tx FROM traffic_counter
     WHERE node_id = ? AND iface = ? AND received_at >= ? AND received_at < ?
     ORDER BY received_at`,
  );
  const byNode = new Map<number, Array<{ iface: string; lo: number; hi: number }>>();
  for (const r of ifaces.all() as Array<{
    node_id: number;
    iface: string;
    lo: number;
    hi: number;
  }>) {
    const list = byNode.get(r.node_id) ?? [];
    list.push({ iface: r.iface, lo: r.lo, hi: r.hi });
    byNode.set(r.node_id, list);
  }
  for (const [nodeId, list] of byNode) {
    const lo = Math.min(...list.map((i) => i.lo));
    const hi = Math.max(...list.map((i) => i.hi));
    for (let day = Math.floor(lo / DAY_MS) * DAY_MS; day <= hi; day += DAY_MS) {
      const minutes = new Map<number, CounterSampleRow[]>();
      for (const i of list) {
        for (const r of slice.all(nodeId, i.iface, day, day + DAY_MS) as Array<
          Omit<CounterSampleRow, 'iface'>
        >) {
          const slot = counterSlot(r.at);
          const samples = minutes.get(slot) ?? [];
          samples.push({ iface: i.iface, ...r });
          minutes.set(slot, samples);
        }
      }
      for (const [slot, samples] of minutes) insert.run(slot, nodeId, encodeCounters(samples));
    }
  }
  db.exec('DROP TABLE traffic_counter');
}
