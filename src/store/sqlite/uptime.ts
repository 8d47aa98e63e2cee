import type BetterSqlite3 from 'better-sqlite3';
import type { UptimeRepo, UptimeSums } from '../ports.js';
import { historySource, type OpenLogs } from './history-source.js';

const MINUTE_MS = 60_000;

/**
 * Uptime storage on SQLite with prepared statements: the finaliser writes one row per node
 * every minute, so this stays off Kysely's per-query compile path.
 */
export function sqliteUptimeRepo(db: BetterSqlite3.Database, logs?: OpenLogs): UptimeRepo {
  const insertMinute = db.prepare(
    `INSERT INTO uptime_minute (node_id, minute, online_ms, observed_ms, reports) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT DO NOTHING`,
  );
  const addHour = db.prepare(
    `INSERT INTO uptime_hour (node_id, hour_start, online_ms, observed_ms) VALUES (?, ?, ?, ?)
     ON CONFLICT (node_id, hour_start) DO UPDATE SET
       online_ms = online_ms + excluded.online_ms, observed_ms = observed_ms + excluded.observed_ms`,
  );
  const addDay = db.prepare(
    `INSERT INTO uptime_day (node_id, day, online_ms, observed_ms) VALUES (?, ?, ?, ?)
     ON CONFLICT (node_id, day) DO UPDATE SET
       online_ms = online_ms + excluded.online_ms, observed_ms = observed_ms + excluded.observed_ms`,
  );
  const save = db.transaction((rows: Parameters<UptimeRepo['saveMinutes']>[0]) => {
    for (const r of rows) {
      if (insertMinute.run(r.nodeId, r.minute, r.onlineMs, r.observedMs, r.reports).changes === 0)
        continue;
      addHour.run(r.nodeId, r.hourStart, r.onlineMs, r.observedMs);
      addDay.run(r.nodeId, r.day, r.onlineMs, r.observedMs);
    }
  });
  const lastMinute = db.prepare('SELECT max(minute) AS m FROM uptime_minute');
  const firstReports = db.prepare('SELECT node_id, first_received_at FROM node_current');
  // Receipts live in raw history: sealed blocks, the open raw rows and the open-block logs
  // (history-source.ts).
  const history = historySource(db, logs);
  const currentNodes = db.prepare('SELECT node_id FROM node_current ORDER BY node_id').pluck();
  const nodes = db.prepare(
    'SELECT id, is_guest_visible, interval_sec FROM nodes WHERE deleted_at IS NULL ORDER BY id',
  );
  const node = db.prepare(
    'SELECT id, is_guest_visible, interval_sec FROM nodes WHERE deleted_at IS NULL AND id = ?',
  );
  const days = db.prepare(
    'SELECT node_id, day, online_ms, observed_ms FROM uptime_day WHERE day >= ? AND day <= ?',
  );
  const hours = db.prepare(
    `SELECT hour_start, online_ms, observed_ms FROM uptime_hour
     WHERE node_id = ? AND hour_start >= ? AND hour_start < ? ORDER BY hour_start`,
  );
  const minuteReports = db.prepare(
    `SELECT minute, reports FROM uptime_minute
     WHERE node_id = ? AND minute >= ? AND minute < ? ORDER BY minute`,
  );
  const pruneMinutes = db.prepare(
    `DELETE FROM uptime_minute WHERE (node_id, minute) IN
       (SELECT node_id, minute FROM uptime_minute WHERE minute < ? LIMIT ?)`,
  );
  const pruneHours = db.prepare(
    `DELETE FROM uptime_hour WHERE (node_id, hour_start) IN
       (SELECT node_id, hour_start FROM uptime_hour WHERE hour_start < ? LIMIT ?)`,
  );
  const pruneDays = db.prepare(
    `DELETE FROM uptime_day WHERE (node_id, day) IN (SELECT node_id, day FROM uptime_day WHERE day < ? LIMIT ?)`,
  );
  // One snapshot for the whole fleet: a read transaction (and log refresh) per node cost
  // ~70 µs each at start.
  const receiptsSince = (since: number) =>
    history.batch(() => {
      const out: Array<{ nodeId: number; receivedAt: number }> = [];
      for (const nodeId of currentNodes.all() as number[]) {
        for (const receivedAt of history.times(nodeId, since, Number.MAX_SAFE_INTEGER)) {
          out.push({ nodeId, receivedAt });
        }
      }
      return out;
    });
  type NodeRow = { id: number; is_guest_visible: number; interval_sec: number };
  const toNode = (r: NodeRow) => ({
    id: r.id,
    guestVisible: r.is_guest_visible === 1,
    intervalSec: r.interval_sec,
  });

  return {
    async saveMinutes(rows) {
      if (rows.length > 0) save(rows);
    },
    async lastMinute() {
      return (lastMinute.get() as { m: number | null }).m ?? undefined;
    },
    async firstReports() {
      const rows = firstReports.all() as Array<{ node_id: number; first_received_at: number }>;
      return new Map(rows.map((r) => [r.node_id, r.first_received_at]));
    },
    async recentReceipts(since) {
      return receiptsSince(since);
    },
    async nodes() {
      return (nodes.all() as NodeRow[]).map(toNode);
    },
    async node(id) {
      const r = node.get(id) as NodeRow | undefined;
      return r ? toNode(r) : undefined;
    },
    async days(nodeIds, fromDay, toDay) {
      const wanted = new Set(nodeIds);
      const out = new Map<number, Map<string, UptimeSums>>();
      const rows = days.all(fromDay, toDay) as Array<{
        node_id: number;
        day: string;
        online_ms: number;
        observed_ms: number;
      }>;
      for (const r of rows) {
        if (!wanted.has(r.node_id)) continue;
        let m = out.get(r.node_id);
        if (!m) out.set(r.node_id, (m = new Map<string, UptimeSums>()));
        m.set(r.day, { onlineMs: r.online_ms, observedMs: r.observed_ms });
      }
      return out;
    },
    async hours(nodeId, from, to) {
      const rows = hours.all(nodeId, from, to) as Array<{
        hour_start: number;
        online_ms: number;
        observed_ms: number;
      }>;
      return rows.map((r) => ({
        hourStart: r.hour_start,
        onlineMs: r.online_ms,
        observedMs: r.observed_ms,
      }));
    },
    async reportCounts(nodeId, from, to, stepMs) {
      const out = new Map<number, number>();
      const bucketOf = (t: number) => from + Math.floor((t - from) / stepMs) * stepMs;
      const add = (bucket: number, n: number) => {
        if (n > 0) out.set(bucket, (out.get(bucket) ?? 0) + n);
      };
      // A gap between finalised minutes (before the uptime job first ran, around a restart)
      // is counted from raw history, one range count per bucket it touches. Steady state has
      // few and short gaps; a sealed block inside the range counts without being decoded.
      const countGap = (a: number, b: number) => {
        for (let lo = a; lo < b;) {
          const hi = Math.min(b, bucketOf(lo) + stepMs);
          add(bucketOf(lo), history.count(nodeId, lo, hi));
          lo = hi;
        }
      };
      let cursor = from;
      const rows = minuteReports.all(nodeId, from, to) as Array<{
        minute: number;
        reports: number;
      }>;
      for (const r of rows) {
        if (r.minute > cursor) countGap(cursor, r.minute);
        add(bucketOf(r.minute), r.reports);
        cursor = r.minute + MINUTE_MS;
      }
      if (cursor < to) countGap(cursor, to);
      return out;
    },
    async prune(minuteBefore, hourBefore, dayBefore, limit) {
      return (
        pruneMinutes.run(minuteBefore, limit).changes +
        pruneHours.run(hourBefore, limit).changes +
        pruneDays.run(dayBefore, limit).changes
      );
    },
  };
}
