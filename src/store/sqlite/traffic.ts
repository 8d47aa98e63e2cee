import type BetterSqlite3 from 'better-sqlite3';
import type { TrafficBatch, TrafficCounterRow, TrafficFactRow, TrafficRepo } from '../ports.js';
import {
  counterSlot,
  decodeCounters,
  encodeCounters,
  type CounterSampleRow,
} from './traffic-counter-codec.js';
import { sqliteTrafficOpen } from './traffic-open.js';
import {
  toFact,
  toIface,
  toUsage,
  type FactDb,
  type IfaceDb,
  type UsageDb,
} from '../queries/traffic-rows.js';

/** Traffic storage on SQLite with prepared statements (the materialiser writes in batches). */
export function sqliteTrafficRepo(db: BetterSqlite3.Database): TrafficRepo {
  // A later flush's samples of the same minute are appended as sections (codec).
  const putMinute = db.prepare(
    `INSERT INTO traffic_counter_minute (slot, node_id, data) VALUES (?, ?, ?)
     ON CONFLICT (slot, node_id) DO UPDATE SET data = CAST(data || excluded.data AS BLOB)`,
  );
  const addUsage = db.prepare(
    `INSERT INTO traffic_cycle_usage (node_id, iface, cycle_start, cycle_end, in_bytes, out_bytes,
       sample_count, gap_count, reset_count, peak_in, peak_out, peak_total, covered_from, covered_until)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (node_id, iface, cycle_start) DO UPDATE SET
       in_bytes = in_bytes + excluded.in_bytes, out_bytes = out_bytes + excluded.out_bytes,
       sample_count = sample_count + excluded.sample_count,
       gap_count = gap_count + excluded.gap_count, reset_count = reset_count + excluded.reset_count,
       peak_in = max(peak_in, excluded.peak_in), peak_out = max(peak_out, excluded.peak_out),
       peak_total = max(peak_total, excluded.peak_total),
       covered_from = min(covered_from, excluded.covered_from),
       covered_until = max(covered_until, excluded.covered_until)`,
  );
  const open = sqliteTrafficOpen(db);
  const IFACE = 'node_id, iface, first_at, last_at, last_rx, last_tx';
  const allIfaces = db.prepare(`SELECT ${IFACE} FROM traffic_iface`);
  const nodeIfaces = db.prepare(`SELECT ${IFACE} FROM traffic_iface WHERE node_id = ?`);
  const facts = db.prepare(
    `SELECT * FROM traffic_5m WHERE node_id = ? AND iface = ? AND bucket >= ? AND bucket < ?
     ORDER BY bucket`,
  );
  const usage = db.prepare(
    'SELECT * FROM traffic_cycle_usage WHERE node_id = ? AND iface = ? AND cycle_start = ?',
  );
  const usageSince = db.prepare(
    `SELECT * FROM traffic_cycle_usage WHERE node_id = ? AND iface = ? AND cycle_start >= ?
     ORDER BY cycle_start`,
  );
  const slots = db.prepare('SELECT min(slot) AS lo, max(slot) AS hi FROM traffic_counter_minute');
  // One look-up per minute of the node, in one statement (CROSS JOIN keeps the minutes outer).
  const minutesUp = db.prepare(
    `WITH RECURSIVE s(k) AS (SELECT ? UNION ALL SELECT k + 1 FROM s WHERE k < ?)
     SELECT c.data FROM s CROSS JOIN traffic_counter_minute c ON c.slot = s.k AND c.node_id = ?`,
  );
  const minutesDown = db.prepare(
    `WITH RECURSIVE s(k) AS (SELECT ? UNION ALL SELECT k - 1 FROM s WHERE k > ?)
     SELECT c.data FROM s CROSS JOIN traffic_counter_minute c ON c.slot = s.k AND c.node_id = ?`,
  );
  const range = db.prepare(
    `SELECT min(first_at) AS first, max(last_at) AS last FROM traffic_iface WHERE node_id = ?`,
  );
  const delFacts = db.prepare(
    'DELETE FROM traffic_5m WHERE node_id = ? AND bucket >= ? AND bucket < ?',
  );
  const delSnapshots = db.prepare(
    'DELETE FROM traffic_monthly WHERE node_id = ? AND cycle_start < ? AND cycle_end > ?',
  );
  const delUsage = db.prepare(
    'DELETE FROM traffic_cycle_usage WHERE node_id = ? AND cycle_end > ?',
  );
  const snapshots = db.prepare(
    'SELECT * FROM traffic_monthly WHERE node_id = ? AND iface = ? ORDER BY cycle_start DESC',
  );
  const putSnapshot = db.prepare(
    `INSERT INTO traffic_monthly (node_id, iface, cycle_start, cycle_end, stats_json, sealed)
     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (node_id, iface, cycle_start) DO UPDATE SET
       cycle_end = excluded.cycle_end, stats_json = excluded.stats_json, sealed = excluded.sealed`,
  );
  // Whole minutes from the oldest: they are the first pages of the table.
  const pruneCounters = db.prepare(
    `DELETE FROM traffic_counter_minute WHERE (slot, node_id) IN
       (SELECT slot, node_id FROM traffic_counter_minute WHERE slot < ? LIMIT ?)`,
  );
  const pruneFacts = db.prepare(
    `DELETE FROM traffic_5m WHERE (node_id, iface, bucket) IN
       (SELECT node_id, iface, bucket FROM traffic_5m WHERE bucket < ? LIMIT ?)`,
  );

  /** A node's minutes [from, to] that hold rows, clamped to the stored ones (undefined: none). */
  const stored = (from: number, to: number): [number, number] | undefined => {
    const r = slots.get() as { lo: number | null; hi: number | null };
    if (r.lo === null || r.hi === null) return undefined;
    const lo = Math.max(from, r.lo);
    const hi = Math.min(to, r.hi);
    return lo <= hi ? [lo, hi] : undefined;
  };
  /** The node's samples of minutes lo..hi (ascending or, `down`, descending), row by row. */
  function* minutes(nodeId: number, lo: number, hi: number, down = false) {
    const rows = down ? minutesDown.iterate(hi, lo, nodeId) : minutesUp.iterate(lo, hi, nodeId);
    for (const r of rows as IterableIterator<{ data: Uint8Array }>) yield decodeCounters(r.data);
  }
  const row = (nodeId: number, s: CounterSampleRow): TrafficCounterRow => ({ nodeId, ...s });
  const countersIn = (nodeId: number, from: number, to: number): TrafficCounterRow[] => {
    const span = to > from ? stored(counterSlot(from), counterSlot(to - 1)) : undefined;
    if (!span) return [];
    const out: TrafficCounterRow[] = [];
    for (const list of minutes(nodeId, span[0], span[1])) {
      for (const s of list) if (s.at >= from && s.at < to) out.push(row(nodeId, s));
    }
    return out.sort((a, b) => a.at - b.at);
  };
  /** The interface's last sample before `at` (walking minutes back to its first sample). */
  const before = (nodeId: number, iface: IfaceDb, at: number) => {
    const span = stored(counterSlot(iface.first_at), counterSlot(at - 1));
    if (!span) return undefined;
    for (const list of minutes(nodeId, span[0], span[1], true)) {
      let hit: CounterSampleRow | undefined;
      for (const s of list) if (s.iface === iface.iface && s.at < at) hit = s;
      if (hit) return row(nodeId, hit);
    }
    return undefined;
  };
  /** The interface's first sample at or after `at` (up to its last sample). */
  const after = (nodeId: number, iface: IfaceDb, at: number) => {
    const span = stored(counterSlot(at), counterSlot(iface.last_at));
    if (!span) return undefined;
    for (const list of minutes(nodeId, span[0], span[1])) {
      const hit = list.find((s) => s.iface === iface.iface && s.at >= at);
      if (hit) return row(nodeId, hit);
    }
    return undefined;
  };

  const apply = db.transaction((b: TrafficBatch) => {
    // Counters come grouped by node (the collector's chunks); one row per node and minute.
    let minute = new Map<number, CounterSampleRow[]>();
    let node = -1;
    const putNode = () => {
      for (const [slot, list] of minute) putMinute.run(slot, node, encodeCounters(list));
      minute = new Map();
    };
    for (const c of b.counters) {
      if (c.nodeId !== node) {
        putNode();
        node = c.nodeId;
      }
      const slot = counterSlot(c.at);
      const s = { iface: c.iface, at: c.at, rx: c.rx, tx: c.tx };
      const list = minute.get(slot);
      if (list) list.push(s);
      else minute.set(slot, [s]);
    }
    putNode();
    open.applyFacts(b);
    for (const u of b.usage) {
      addUsage.run(
        u.nodeId,
        u.iface,
        u.cycleStart,
        u.cycleEnd,
        u.inBytes,
        u.outBytes,
        u.sampleCount,
        u.gapCount,
        u.resetCount,
        u.peakIn,
        u.peakOut,
        u.peakTotal,
        u.coveredFrom,
        u.coveredUntil,
      );
    }
  });
  const replace = db.transaction(
    (
      nodeId: number,
      from: number,
      to: number,
      rows: ReadonlyArray<TrafficFactRow & { iface: string }>,
    ) => {
      delFacts.run(nodeId, from, to);
      open.clearOpen(nodeId, from, to);
      for (const f of rows) open.putRebuilt(nodeId, f.iface, f);
      delSnapshots.run(nodeId, to, from);
    },
  );

  return {
    async ifaceStates() {
      return (allIfaces.all() as IfaceDb[]).map(toIface);
    },
    async ifaces(nodeId) {
      return (nodeIfaces.all(nodeId) as IfaceDb[]).map(toIface);
    },
    async apply(batch) {
      apply(batch);
    },
    async facts(nodeId, iface, from, to) {
      const rows = (facts.all(nodeId, iface, from, to) as FactDb[]).map(toFact);
      return open.withOpen(nodeId, iface, rows, from, to);
    },
    async usage(nodeId, iface, cycleStart) {
      const r = usage.get(nodeId, iface, cycleStart) as UsageDb | undefined;
      return r ? toUsage(r) : undefined;
    },
    async usageSince(nodeId, iface, from) {
      return (usageSince.all(nodeId, iface, from) as UsageDb[]).map(toUsage);
    },
    async countersAround(nodeId, from, to) {
      const out = new Map<string, TrafficCounterRow[]>();
      for (const r of countersIn(nodeId, from, to)) {
        const list = out.get(r.iface) ?? [];
        list.push(r);
        out.set(r.iface, list);
      }
      for (const i of nodeIfaces.all(nodeId) as IfaceDb[]) {
        const prev = before(nodeId, i, from);
        const next = after(nodeId, i, to);
        if (!prev && !next && !out.has(i.iface)) continue;
        const list = out.get(i.iface) ?? [];
        if (prev) list.unshift(prev);
        if (next) list.push(next);
        out.set(i.iface, list);
      }
      return out;
    },
    async counters(nodeId, from, to) {
      return countersIn(nodeId, from, to);
    },
    async counterRange(nodeId) {
      const r = range.get(nodeId) as { first: number | null; last: number | null };
      if (r.first === null || r.last === null) return undefined;
      // The iface rows keep the first sample ever; the retained counters may start later: the
      // first stored minute of the node holds the first retained sample.
      let first = r.last;
      const span = stored(counterSlot(r.first), counterSlot(r.last));
      if (span) {
        for (const list of minutes(nodeId, span[0], span[1])) {
          if (list.length === 0) continue;
          first = Math.min(first, ...list.map((s) => s.at));
          break;
        }
      }
      return { first, last: r.last };
    },
    async replaceFacts(nodeId, from, to, rows) {
      replace(nodeId, from, to, rows);
    },
    async deleteUsageFrom(nodeId, from) {
      delUsage.run(nodeId, from);
    },
    async snapshots(nodeId, iface) {
      return (
        snapshots.all(nodeId, iface) as Array<{
          iface: string;
          cycle_start: number;
          cycle_end: number;
          stats_json: string;
          sealed: number;
        }>
      ).map((r) => ({
        iface: r.iface,
        cycleStart: r.cycle_start,
        cycleEnd: r.cycle_end,
        statsJson: r.stats_json,
        sealed: r.sealed === 1,
      }));
    },
    async putSnapshot(nodeId, r) {
      putSnapshot.run(nodeId, r.iface, r.cycleStart, r.cycleEnd, r.statsJson, r.sealed ? 1 : 0);
    },
    async prune(cutoff, limit) {
      // Whole minutes before the cut-off's (up to a minute more is kept: a minute's row is
      // one unit). Counted in rows, each a node's minute: the caller repeats while a call
      // reaches the limit.
      const minutes = pruneCounters.run(counterSlot(cutoff), limit).changes;
      const facts = pruneFacts.run(cutoff, limit).changes;
      if (facts < limit) open.pruneOpen(cutoff);
      return minutes + facts;
    },
  };
}
