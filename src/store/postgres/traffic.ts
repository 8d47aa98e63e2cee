import type pg from 'pg';
import type { QueryResultRow } from 'pg';
import type { TrafficCounterRow, TrafficRepo } from '../ports.js';
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
import { inTransaction } from './pool.js';
import type { PartitionGuard } from './partition-guard.js';
import { dropPartitionsBefore } from './partitions.js';

/**
 * Traffic storage on PostgreSQL (migration 0005). Counters and 5-minute facts live in daily
 * partitions: `prune` drops whole days before the cut-off (a partition counts as one in its
 * result); a write for a day without a partition creates it first.
 */
/**
 * Splits rows into runs in which no key repeats, keeping each key's rows in order: one
 * multi-row upsert per run (PostgreSQL refuses an upsert that would change one row twice), so
 * a batch takes a statement per table instead of one per row, with the same result as applying
 * the rows one by one. A batch normally has each key once: one run.
 */
export function distinctRounds<T>(rows: readonly T[], key: (row: T) => string): T[][] {
  const seen = new Map<string, number>();
  const out: T[][] = [];
  for (const row of rows) {
    const k = key(row);
    const round = seen.get(k) ?? 0;
    seen.set(k, round + 1);
    (out[round] ??= []).push(row);
  }
  return out;
}

/** One parameter array per column, for `unnest`. */
function columns<T>(rows: readonly T[], cols: ReadonlyArray<(row: T) => unknown>): unknown[][] {
  return cols.map((col) => rows.map(col));
}

export function postgresTrafficRepo(pool: pg.Pool, guard: PartitionGuard): TrafficRepo {
  const rows = async <T extends QueryResultRow>(sql: string, params: unknown[]) =>
    (await pool.query<T>(sql, params)).rows;

  return {
    async ifaceStates() {
      return (await rows<IfaceDb>('SELECT * FROM traffic_iface', [])).map(toIface);
    },
    async ifaces(nodeId) {
      return (await rows<IfaceDb>('SELECT * FROM traffic_iface WHERE node_id = $1', [nodeId])).map(
        toIface,
      );
    },
    async apply(b) {
      await guard.ensure([...b.counters.map((c) => c.at), ...b.facts.map((f) => f.bucket)]);
      await inTransaction(pool, async (c) => {
        if (b.counters.length > 0) {
          await c.query(
            `INSERT INTO traffic_counter (node_id, iface, received_at, rx, tx)
             SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[])
             ON CONFLICT DO NOTHING`,
            [
              b.counters.map((x) => x.nodeId),
              b.counters.map((x) => x.iface),
              b.counters.map((x) => x.at),
              b.counters.map((x) => x.rx),
              b.counters.map((x) => x.tx),
            ],
          );
        }
        for (const part of distinctRounds(b.ifaces, (i) => `${i.nodeId}\u0000${i.iface}`)) {
          await c.query(
            `INSERT INTO traffic_iface AS t (node_id, iface, first_at, last_at, last_rx, last_tx)
             SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[],
               $5::bigint[], $6::bigint[])
             ON CONFLICT (node_id, iface) DO UPDATE SET first_at = least(t.first_at, excluded.first_at),
               last_at = excluded.last_at, last_rx = excluded.last_rx, last_tx = excluded.last_tx`,
            columns(part, [
              (i) => i.nodeId,
              (i) => i.iface,
              (i) => i.firstAt,
              (i) => i.lastAt,
              (i) => i.lastRx,
              (i) => i.lastTx,
            ]),
          );
        }
        for (const part of distinctRounds(
          b.facts,
          (f) => `${f.nodeId}\u0000${f.iface}\u0000${f.bucket}`,
        )) {
          await c.query(
            `INSERT INTO traffic_5m AS t (node_id, iface, bucket, in_bytes, out_bytes, valid_in,
               valid_out, valid_ms, gap_count, reset_count)
             SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[],
               $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[])
             ON CONFLICT (node_id, iface, bucket) DO UPDATE SET
               in_bytes = t.in_bytes + excluded.in_bytes, out_bytes = t.out_bytes + excluded.out_bytes,
               valid_in = t.valid_in + excluded.valid_in, valid_out = t.valid_out + excluded.valid_out,
               valid_ms = t.valid_ms + excluded.valid_ms, gap_count = t.gap_count + excluded.gap_count,
               reset_count = t.reset_count + excluded.reset_count`,
            columns(part, [
              (f) => f.nodeId,
              (f) => f.iface,
              (f) => f.bucket,
              (f) => f.inBytes,
              (f) => f.outBytes,
              (f) => f.validIn,
              (f) => f.validOut,
              (f) => f.validMs,
              (f) => f.gapCount,
              (f) => f.resetCount,
            ]),
          );
        }
        for (const part of distinctRounds(
          b.usage,
          (u) => `${u.nodeId}\u0000${u.iface}\u0000${u.cycleStart}`,
        )) {
          await c.query(
            `INSERT INTO traffic_cycle_usage AS t (node_id, iface, cycle_start, cycle_end, in_bytes,
               out_bytes, sample_count, gap_count, reset_count, peak_in, peak_out, peak_total,
               covered_from, covered_until)
             SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[],
               $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[], $10::float8[], $11::float8[],
               $12::float8[], $13::bigint[], $14::bigint[])
             ON CONFLICT (node_id, iface, cycle_start) DO UPDATE SET
               in_bytes = t.in_bytes + excluded.in_bytes, out_bytes = t.out_bytes + excluded.out_bytes,
               sample_count = t.sample_count + excluded.sample_count,
               gap_count = t.gap_count + excluded.gap_count,
               reset_count = t.reset_count + excluded.reset_count,
               peak_in = greatest(t.peak_in, excluded.peak_in),
               peak_out = greatest(t.peak_out, excluded.peak_out),
               peak_total = greatest(t.peak_total, excluded.peak_total),
               covered_from = least(t.covered_from, excluded.covered_from),
               covered_until = greatest(t.covered_until, excluded.covered_until)`,
            columns(part, [
              (u) => u.nodeId,
              (u) => u.iface,
              (u) => u.cycleStart,
              (u) => u.cycleEnd,
              (u) => u.inBytes,
              (u) => u.outBytes,
              (u) => u.sampleCount,
              (u) => u.gapCount,
              (u) => u.resetCount,
              (u) => u.peakIn,
              (u) => u.peakOut,
              (u) => u.peakTotal,
              (u) => u.coveredFrom,
              (u) => u.coveredUntil,
            ]),
          );
        }
      });
    },
    async facts(nodeId, iface, from, to) {
      return (
        await rows<FactDb>(
          `SELECT * FROM traffic_5m WHERE node_id = $1 AND iface = $2 AND bucket >= $3 AND bucket < $4
           ORDER BY bucket`,
          [nodeId, iface, from, to],
        )
      ).map(toFact);
    },
    async usage(nodeId, iface, cycleStart) {
      const r = (
        await rows<UsageDb>(
          'SELECT * FROM traffic_cycle_usage WHERE node_id = $1 AND iface = $2 AND cycle_start = $3',
          [nodeId, iface, cycleStart],
        )
      )[0];
      return r ? toUsage(r) : undefined;
    },
    async usageSince(nodeId, iface, from) {
      return (
        await rows<UsageDb>(
          `SELECT * FROM traffic_cycle_usage WHERE node_id = $1 AND iface = $2 AND cycle_start >= $3
           ORDER BY cycle_start`,
          [nodeId, iface, from],
        )
      ).map(toUsage);
    },
    async countersAround(nodeId, from, to) {
      const out = new Map<string, TrafficCounterRow[]>();
      for (const r of await counterRows(nodeId, from, to)) {
        const list = out.get(r.iface) ?? [];
        list.push(toCounter(r));
        out.set(r.iface, list);
      }
      // The sample before `from` and the one at or after `to` of every interface, in one read.
      const edges = await rows<CounterDb & { edge: string }>(
        `SELECT e.* FROM traffic_iface i, LATERAL (
           (SELECT c.*, 'prev' AS edge FROM traffic_counter c
            WHERE c.node_id = i.node_id AND c.iface = i.iface AND c.received_at < $2
            ORDER BY c.received_at DESC LIMIT 1)
           UNION ALL
           (SELECT c.*, 'next' AS edge FROM traffic_counter c
            WHERE c.node_id = i.node_id AND c.iface = i.iface AND c.received_at >= $3
            ORDER BY c.received_at LIMIT 1)) e
         WHERE i.node_id = $1`,
        [nodeId, from, to],
      );
      for (const e of edges) {
        const list = out.get(e.iface) ?? [];
        if (e.edge === 'prev') list.unshift(toCounter(e));
        else list.push(toCounter(e));
        out.set(e.iface, list);
      }
      return out;
    },
    async counters(nodeId, from, to) {
      return (await counterRows(nodeId, from, to)).map(toCounter);
    },
    async counterRange(nodeId) {
      const r = (
        await rows<{ first: number | null; last: number | null }>(
          'SELECT min(first_at) AS first, max(last_at) AS last FROM traffic_iface WHERE node_id = $1',
          [nodeId],
        )
      )[0];
      if (!r || r.first === null || r.last === null) return undefined;
      // The iface row keeps the first sample ever; the retained counters may start later.
      const firsts = await rows<{ t: number | null }>(
        `SELECT (SELECT min(received_at) FROM traffic_counter c
                 WHERE c.node_id = i.node_id AND c.iface = i.iface) AS t
         FROM traffic_iface i WHERE i.node_id = $1`,
        [nodeId],
      );
      let first = r.last;
      for (const f of firsts) if (f.t !== null) first = Math.min(first, f.t);
      return { first, last: r.last };
    },
    async replaceFacts(nodeId, from, to, facts) {
      await guard.ensure(facts.map((f) => f.bucket));
      await inTransaction(pool, async (c) => {
        await c.query(
          'DELETE FROM traffic_5m WHERE node_id = $1 AND bucket >= $2 AND bucket < $3',
          [nodeId, from, to],
        );
        if (facts.length > 0) {
          await c.query(
            `INSERT INTO traffic_5m (node_id, iface, bucket, in_bytes, out_bytes, valid_in, valid_out,
               valid_ms, gap_count, reset_count)
             SELECT $1, * FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::bigint[],
               $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[])`,
            [
              nodeId,
              facts.map((f) => f.iface),
              facts.map((f) => f.bucket),
              facts.map((f) => f.inBytes),
              facts.map((f) => f.outBytes),
              facts.map((f) => f.validIn),
              facts.map((f) => f.validOut),
              facts.map((f) => f.validMs),
              facts.map((f) => f.gapCount),
              facts.map((f) => f.resetCount),
            ],
          );
        }
        await c.query(
          'DELETE FROM traffic_monthly WHERE node_id = $1 AND cycle_start < $2 AND cycle_end > $3',
          [nodeId, to, from],
        );
      });
    },
    async deleteUsageFrom(nodeId, from) {
      await pool.query('DELETE FROM traffic_cycle_usage WHERE node_id = $1 AND cycle_end > $2', [
        nodeId,
        from,
      ]);
    },
    async snapshots(nodeId, iface) {
      const list = await rows<{
        iface: string;
        cycle_start: number;
        cycle_end: number;
        stats_json: string;
        sealed: number;
      }>(
        'SELECT * FROM traffic_monthly WHERE node_id = $1 AND iface = $2 ORDER BY cycle_start DESC',
        [nodeId, iface],
      );
      return list.map((r) => ({
        iface: r.iface,
        cycleStart: r.cycle_start,
        cycleEnd: r.cycle_end,
        statsJson: r.stats_json,
        sealed: r.sealed === 1,
      }));
    },
    async putSnapshot(nodeId, r) {
      await pool.query(
        `INSERT INTO traffic_monthly (node_id, iface, cycle_start, cycle_end, stats_json, sealed)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (node_id, iface, cycle_start) DO UPDATE SET
           cycle_end = excluded.cycle_end, stats_json = excluded.stats_json, sealed = excluded.sealed`,
        [nodeId, r.iface, r.cycleStart, r.cycleEnd, r.statsJson, r.sealed],
      );
    },
    async prune(cutoff) {
      const counters = await dropPartitionsBefore(pool, 'traffic_counter', cutoff);
      const facts = await dropPartitionsBefore(pool, 'traffic_5m', cutoff);
      if (counters.length + facts.length > 0) guard.reset();
      return counters.length + facts.length;
    },
  };

  function counterRows(nodeId: number, from: number, to: number) {
    return rows<CounterDb>(
      `SELECT * FROM traffic_counter WHERE node_id = $1 AND received_at >= $2 AND received_at < $3
       ORDER BY received_at`,
      [nodeId, from, to],
    );
  }
}
