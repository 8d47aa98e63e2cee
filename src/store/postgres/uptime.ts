import type pg from 'pg';
import type { UptimeRepo, UptimeSums } from '../ports.js';
import { inTransaction } from './pool.js';
import type { PartitionGuard } from './partition-guard.js';
import { dropPartitionsBefore } from './partitions.js';

const MINUTE_MS = 60_000;

type NodeRow = { id: number; is_guest_visible: number; interval_sec: number };
const toNode = (r: NodeRow) => ({
  id: r.id,
  guestVisible: r.is_guest_visible === 1,
  intervalSec: r.interval_sec,
});

/**
 * Uptime storage on PostgreSQL. Minutes live in daily partitions: pruning drops whole days
 * before the cut-off (a partition counts as one in `prune`'s result); hour and day sums are
 * deleted row by row as on SQLite.
 */
export function postgresUptimeRepo(pool: pg.Pool, guard: PartitionGuard): UptimeRepo {
  return {
    async saveMinutes(rows) {
      if (rows.length === 0) return;
      await guard.ensure(rows.map((r) => r.minute));
      await inTransaction(pool, async (c) => {
        for (const r of rows) {
          const ins = await c.query(
            `INSERT INTO uptime_minute (node_id, minute, online_ms, observed_ms, reports)
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
            [r.nodeId, r.minute, r.onlineMs, r.observedMs, r.reports],
          );
          if (ins.rowCount === 0) continue;
          await c.query(
            `INSERT INTO uptime_hour AS h (node_id, hour_start, online_ms, observed_ms)
             VALUES ($1, $2, $3, $4) ON CONFLICT (node_id, hour_start) DO UPDATE SET
               online_ms = h.online_ms + excluded.online_ms,
               observed_ms = h.observed_ms + excluded.observed_ms`,
            [r.nodeId, r.hourStart, r.onlineMs, r.observedMs],
          );
          await c.query(
            `INSERT INTO uptime_day AS d (node_id, day, online_ms, observed_ms)
             VALUES ($1, $2, $3, $4) ON CONFLICT (node_id, day) DO UPDATE SET
               online_ms = d.online_ms + excluded.online_ms,
               observed_ms = d.observed_ms + excluded.observed_ms`,
            [r.nodeId, r.day, r.onlineMs, r.observedMs],
          );
        }
      });
    },
    async lastMinute() {
      const r = await pool.query<{ m: number | null }>(
        'SELECT max(minute) AS m FROM uptime_minute',
      );
      return r.rows[0]?.m ?? undefined;
    },
    async firstReports() {
      const r = await pool.query<{ node_id: number; first_received_at: number }>(
        'SELECT node_id, first_received_at FROM node_current',
      );
      return new Map(r.rows.map((x) => [x.node_id, x.first_received_at]));
    },
    async recentReceipts(since) {
      const r = await pool.query<{ node_id: number; received_at: number }>(
        `SELECT r.node_id, r.received_at FROM node_current c
         JOIN metrics_raw r ON r.node_id = c.node_id AND r.received_at >= $1
         ORDER BY r.node_id, r.received_at`,
        [since],
      );
      return r.rows.map((x) => ({ nodeId: x.node_id, receivedAt: x.received_at }));
    },
    async nodes() {
      const r = await pool.query<NodeRow>(
        'SELECT id, is_guest_visible, interval_sec FROM nodes WHERE deleted_at IS NULL ORDER BY id',
      );
      return r.rows.map(toNode);
    },
    async node(id) {
      const r = await pool.query<NodeRow>(
        'SELECT id, is_guest_visible, interval_sec FROM nodes WHERE deleted_at IS NULL AND id = $1',
        [id],
      );
      const row = r.rows[0];
      return row ? toNode(row) : undefined;
    },
    async days(nodeIds, fromDay, toDay) {
      const out = new Map<number, Map<string, UptimeSums>>();
      if (nodeIds.length === 0) return out;
      const r = await pool.query<{
        node_id: number;
        day: string;
        online_ms: number;
        observed_ms: number;
      }>(
        `SELECT node_id, day, online_ms, observed_ms FROM uptime_day
         WHERE node_id = ANY($1::bigint[]) AND day >= $2 AND day <= $3`,
        [nodeIds, fromDay, toDay],
      );
      for (const row of r.rows) {
        let m = out.get(row.node_id);
        if (!m) out.set(row.node_id, (m = new Map<string, UptimeSums>()));
        m.set(row.day, { onlineMs: row.online_ms, observedMs: row.observed_ms });
      }
      return out;
    },
    async hours(nodeId, from, to) {
      const r = await pool.query<{ hour_start: number; online_ms: number; observed_ms: number }>(
        `SELECT hour_start, online_ms, observed_ms FROM uptime_hour
         WHERE node_id = $1 AND hour_start >= $2 AND hour_start < $3 ORDER BY hour_start`,
        [nodeId, from, to],
      );
      return r.rows.map((x) => ({
        hourStart: x.hour_start,
        onlineMs: x.online_ms,
        observedMs: x.observed_ms,
      }));
    },
    async reportCounts(nodeId, from, to, stepMs) {
      const out = new Map<number, number>();
      const bucketOf = (t: number) => from + Math.floor((t - from) / stepMs) * stepMs;
      const add = (bucket: number, n: number) => {
        if (n > 0) out.set(bucket, (out.get(bucket) ?? 0) + n);
      };
      // Gaps between finalised minutes are counted from raw history, per bucket they touch.
      const gaps: Array<[number, number]> = [];
      const countGap = (a: number, b: number) => {
        for (let lo = a; lo < b;) {
          const hi = Math.min(b, bucketOf(lo) + stepMs);
          gaps.push([lo, hi]);
          lo = hi;
        }
      };
      let cursor = from;
      const rows = await pool.query<{ minute: number; reports: number }>(
        `SELECT minute, reports FROM uptime_minute
         WHERE node_id = $1 AND minute >= $2 AND minute < $3 ORDER BY minute`,
        [nodeId, from, to],
      );
      for (const r of rows.rows) {
        if (r.minute > cursor) countGap(cursor, r.minute);
        add(bucketOf(r.minute), r.reports);
        cursor = r.minute + MINUTE_MS;
      }
      if (cursor < to) countGap(cursor, to);
      if (gaps.length > 0) {
        // One statement for every gap: each range is a primary-key range scan.
        const counts = await pool.query<{ lo: number; n: number }>(
          `SELECT g.lo, (SELECT count(*) FROM metrics_raw r WHERE r.node_id = $1
             AND r.received_at >= g.lo AND r.received_at < g.hi) AS n
           FROM unnest($2::bigint[], $3::bigint[]) AS g (lo, hi)`,
          [nodeId, gaps.map((g) => g[0]), gaps.map((g) => g[1])],
        );
        for (const c of counts.rows) add(bucketOf(c.lo), c.n);
      }
      return out;
    },
    async prune(minuteBefore, hourBefore, dayBefore, limit) {
      const dropped = await dropPartitionsBefore(pool, 'uptime_minute', minuteBefore);
      if (dropped.length > 0) guard.reset();
      const hours = await pool.query(
        `DELETE FROM uptime_hour WHERE (node_id, hour_start) IN
           (SELECT node_id, hour_start FROM uptime_hour WHERE hour_start < $1 LIMIT $2)`,
        [hourBefore, limit],
      );
      const days = await pool.query(
        `DELETE FROM uptime_day WHERE (node_id, day) IN
           (SELECT node_id, day FROM uptime_day WHERE day < $1 LIMIT $2)`,
        [dayBefore, limit],
      );
      return dropped.length + (hours.rowCount ?? 0) + (days.rowCount ?? 0);
    },
  };
}
