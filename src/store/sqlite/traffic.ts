import type BetterSqlite3 from 'better-sqlite3';
import type { TrafficBatch, TrafficCounterRow, TrafficFactRow, TrafficRepo } from '../ports.js';
import {
  toCounter,
  toFact,
  toIface,
  toUsage,
  type CounterDb,
  type FactDb,
  type IfaceDb,
  type UsageDb,
} from '../queries/traffic-rows.js';

/** Traffic storage on SQLite with prepared statements (the materialiser writes in batches). */
export function sqliteTrafficRepo(db: BetterSqlite3.Database): TrafficRepo {
  const insCounter = db.prepare(
    `INSERT INTO traffic_counter (node_id, iface, received_at, rx, tx) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT DO NOTHING`,
  );
  const upIface = db.prepare(
    `INSERT INTO traffic_iface (node_id, iface, first_at, last_at, last_rx, last_tx)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (node_id, iface) DO UPDATE SET first_at = min(first_at, excluded.first_at),
       last_at = excluded.last_at, last_rx = excluded.last_rx, last_tx = excluded.last_tx`,
  );
  const addFact = db.prepare(
    `INSERT INTO traffic_5m (node_id, iface, bucket, in_bytes, out_bytes, valid_in, valid_out,
       valid_ms, gap_count, reset_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (node_id, iface, bucket) DO UPDATE SET
       in_bytes = in_bytes + excluded.in_bytes, out_bytes = out_bytes + excluded.out_bytes,
       valid_in = valid_in + excluded.valid_in, valid_out = valid_out + excluded.valid_out,
       valid_ms = valid_ms + excluded.valid_ms, gap_count = gap_count + excluded.gap_count,
       reset_count = reset_count + excluded.reset_count`,
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
  const allIfaces = db.prepare('SELECT * FROM traffic_iface');
  const nodeIfaces = db.prepare('SELECT * FROM traffic_iface WHERE node_id = ?');
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
  const countersIn = db.prepare(
    `SELECT * FROM traffic_counter WHERE node_id = ? AND received_at >= ? AND received_at < ?
     ORDER BY received_at`,
  );
  const before = db.prepare(
    `SELECT * FROM traffic_counter WHERE node_id = ? AND iface = ? AND received_at < ?
     ORDER BY received_at DESC LIMIT 1`,
  );
  const after = db.prepare(
    `SELECT * FROM traffic_counter WHERE node_id = ? AND iface = ? AND received_at >= ?
     ORDER BY received_at LIMIT 1`,
  );
  const range = db.prepare(
    `SELECT min(first_at) AS first, max(last_at) AS last FROM traffic_iface WHERE node_id = ?`,
  );
  const firstCounter = db.prepare(
    'SELECT min(received_at) AS t FROM traffic_counter WHERE node_id = ? AND iface = ?',
  );
  const delFacts = db.prepare(
    'DELETE FROM traffic_5m WHERE node_id = ? AND bucket >= ? AND bucket < ?',
  );
  const insFact = db.prepare(
    `INSERT INTO traffic_5m (node_id, iface, bucket, in_bytes, out_bytes, valid_in, valid_out,
       valid_ms, gap_count, reset_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
  // By interface through the primary key: counters have no time index (migration 0015).
  const pruneCounters = db.prepare(
    'DELETE FROM traffic_counter WHERE node_id = ? AND iface = ? AND received_at < ?',
  );
  /** Where the next prune call resumes in the list of interfaces (see prune). */
  let pruneFrom = 0;
  const pruneFacts = db.prepare(
    `DELETE FROM traffic_5m WHERE (node_id, iface, bucket) IN
       (SELECT node_id, iface, bucket FROM traffic_5m WHERE bucket < ? LIMIT ?)`,
  );

  const apply = db.transaction((b: TrafficBatch) => {
    for (const c of b.counters) insCounter.run(c.nodeId, c.iface, c.at, c.rx, c.tx);
    for (const i of b.ifaces)
      upIface.run(i.nodeId, i.iface, i.firstAt, i.lastAt, i.lastRx, i.lastTx);
    for (const f of b.facts) {
      addFact.run(
        f.nodeId,
        f.iface,
        f.bucket,
        f.inBytes,
        f.outBytes,
        f.validIn,
        f.validOut,
        f.validMs,
        f.gapCount,
        f.resetCount,
      );
    }
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
      for (const f of rows) {
        insFact.run(
          nodeId,
          f.iface,
          f.bucket,
          f.inBytes,
          f.outBytes,
          f.validIn,
          f.validOut,
          f.validMs,
          f.gapCount,
          f.resetCount,
        );
      }
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
      return (facts.all(nodeId, iface, from, to) as FactDb[]).map(toFact);
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
      for (const r of countersIn.all(nodeId, from, to) as CounterDb[]) {
        const list = out.get(r.iface) ?? [];
        list.push(toCounter(r));
        out.set(r.iface, list);
      }
      for (const i of nodeIfaces.all(nodeId) as IfaceDb[]) {
        const prev = before.get(nodeId, i.iface, from) as CounterDb | undefined;
        const next = after.get(nodeId, i.iface, to) as CounterDb | undefined;
        if (!prev && !next && !out.has(i.iface)) continue;
        const list = out.get(i.iface) ?? [];
        if (prev) list.unshift(toCounter(prev));
        if (next) list.push(toCounter(next));
        out.set(i.iface, list);
      }
      return out;
    },
    async counters(nodeId, from, to) {
      return (countersIn.all(nodeId, from, to) as CounterDb[]).map(toCounter);
    },
    async counterRange(nodeId) {
      const r = range.get(nodeId) as { first: number | null; last: number | null };
      if (r.first === null || r.last === null) return undefined;
      // The iface row keeps the first sample ever; the retained counters may start later.
      let first = r.last;
      for (const i of nodeIfaces.all(nodeId) as IfaceDb[]) {
        const t = (firstCounter.get(nodeId, i.iface) as { t: number | null }).t;
        if (t !== null) first = Math.min(first, t);
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
      // Interface after interface until `limit` counters went, resuming there on the next call
      // (the caller repeats while a call reaches the limit); a call that ends the list starts
      // it again next time.
      const ifaces = allIfaces.all() as IfaceDb[];
      let counters = 0;
      while (pruneFrom < ifaces.length && counters < limit) {
        const i = ifaces[pruneFrom++] as IfaceDb;
        counters += pruneCounters.run(i.node_id, i.iface, cutoff).changes;
      }
      if (pruneFrom >= ifaces.length) pruneFrom = 0;
      return counters + pruneFacts.run(cutoff, limit).changes;
    },
  };
}
