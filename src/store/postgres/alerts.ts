import type pg from 'pg';
import type { AlertsRepo, AlertTransitionWrite } from '../ports.js';
import {
  toEvent,
  toNodeRef,
  toOpenKey,
  toRule,
  toSettings,
  type EventDbRow,
  type NodeRefDbRow,
  type OpenKeyDbRow,
  type RuleDbRow,
  type SettingsDbRow,
} from '../queries/alert-rows.js';
import {
  eventsQuery,
  insertEventSql,
  insertRuleSql,
  openEventValues,
  ruleValues,
  OPEN_KEYS_SQL,
  OPEN_ROWS_SQL,
  postgresPlaceholder,
  RULES_SQL,
  ruleUpdate,
  SETTINGS_SQL,
} from '../queries/alert-sql.js';
import { postgresAlertSilences } from './alert-silences.js';
import { inTransaction } from './pool.js';

const changed = (res: pg.QueryResult) => (res.rowCount ?? 0) > 0;

/**
 * Alerts on PostgreSQL, statement for statement as sqliteAlertsRepo: transitions commit with
 * their outbox rows in one transaction, and the partial unique index on open events makes a
 * second open of the same node/rule fail the whole batch, as on SQLite.
 */
export function postgresAlertsRepo(pool: pg.Pool): AlertsRepo {
  async function apply(c: pg.PoolClient, w: AlertTransitionWrite): Promise<void> {
    const transition = (eventId: number, kind: string, seq: number, reason: string | null) =>
      c.query(
        `INSERT INTO alert_transitions (event_id, transition, seq, close_reason, created_at)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
        [eventId, kind, seq, reason, w.at],
      );
    if (w.kind === 'refresh') {
      await c.query(
        `UPDATE alert_events SET last_trigger_at = $1, current_value = $2
         WHERE node_id = $3 AND rule_id = $4 AND status = 'open'`,
        [w.at, w.value, w.nodeId, w.ruleId],
      );
    } else if (w.kind === 'open') {
      const res = await c.query<{ id: number }>(
        insertEventSql(postgresPlaceholder),
        openEventValues(w),
      );
      if (w.notify) await transition(res.rows[0]!.id, 'opened', 0, null);
    } else if (w.kind === 'repeat' || w.kind === 'notify_open') {
      const seq = w.kind === 'repeat' ? w.seq : 0;
      const row = (
        await c.query<{ id: number }>(
          `UPDATE alert_events SET last_notified_at = $1, repeat_count = greatest(repeat_count, $2)
           WHERE node_id = $3 AND rule_id = $4 AND status = 'open' RETURNING id`,
          [w.at, seq, w.nodeId, w.ruleId],
        )
      ).rows[0];
      if (row) await transition(row.id, w.kind === 'repeat' ? 'repeat' : 'opened', seq, null);
    } else {
      const row = (
        await c.query<{ id: number }>(
          `UPDATE alert_events SET status = 'closed', closed_at = $1, close_reason = $2,
             current_value = coalesce($3, current_value), silenced = silenced OR $4,
             flapping = flapping OR $5
           WHERE node_id = $6 AND rule_id = $7 AND status = 'open' RETURNING id`,
          [w.at, w.reason, w.value ?? null, w.silenced, w.flapping, w.nodeId, w.ruleId],
        )
      ).rows[0];
      if (row && w.notify) await transition(row.id, 'closed', 0, w.reason);
    }
  }

  return {
    ...postgresAlertSilences(pool),
    async rules() {
      return (await pool.query<RuleDbRow>(RULES_SQL)).rows.map(toRule);
    },
    async createRule(r, now) {
      const res = await pool.query<{ id: number }>(
        insertRuleSql(postgresPlaceholder),
        ruleValues(r, now),
      );
      return res.rows[0]!.id;
    },
    async updateRule(id, changes, newGeneration, now) {
      const { sql, args } = ruleUpdate(id, changes, newGeneration, now, postgresPlaceholder);
      return changed(await pool.query(sql, args));
    },
    async deleteRule(id, now) {
      return inTransaction(pool, async (c) => {
        const res = await c.query(
          `UPDATE alert_rules SET deleted_at = $1, updated_at = $1
           WHERE id = $2 AND deleted_at IS NULL`,
          [now, id],
        );
        if (!changed(res)) return false;
        await c.query('DELETE FROM alert_mounts WHERE rule_id = $1', [id]);
        return true;
      });
    },
    async mounts() {
      const res = await pool.query<{ rule_id: number; node_id: number; mounted: number }>(
        'SELECT rule_id, node_id, mounted FROM alert_mounts',
      );
      return res.rows.map((m) => ({
        ruleId: m.rule_id,
        nodeId: m.node_id,
        mounted: m.mounted === 1,
      }));
    },
    async setMounts(ruleIds, nodeIds, mounted) {
      if (ruleIds.length === 0 || nodeIds.length === 0) return;
      // Every rule × node pair in one statement (SQLite loops inside its transaction).
      await pool.query(
        `INSERT INTO alert_mounts (rule_id, node_id, mounted)
         SELECT r, n, $3 FROM unnest($1::bigint[]) AS r, unnest($2::bigint[]) AS n
         ON CONFLICT (rule_id, node_id) DO UPDATE SET mounted = excluded.mounted`,
        [[...new Set(ruleIds)], [...new Set(nodeIds)], mounted],
      );
    },
    async settings() {
      const row = (await pool.query<SettingsDbRow>(SETTINGS_SQL)).rows[0];
      return row === undefined ? undefined : toSettings(row);
    },
    async putSettings(w, now) {
      await pool.query(
        `INSERT INTO alert_settings (id, enabled, channel_ids, repeat_max, flap_threshold,
           flap_window_min, created_at, updated_at) VALUES (1, $1, $2, $3, $4, $5, $6, $6)
         ON CONFLICT (id) DO UPDATE SET enabled = excluded.enabled,
           channel_ids = excluded.channel_ids, repeat_max = excluded.repeat_max,
           flap_threshold = excluded.flap_threshold, flap_window_min = excluded.flap_window_min,
           updated_at = excluded.updated_at`,
        [
          w.enabled,
          JSON.stringify(w.channelIds),
          w.repeatMax,
          w.flapThreshold,
          w.flapWindowMin,
          now,
        ],
      );
    },
    async nodes() {
      const res = await pool.query<NodeRefDbRow>(
        `SELECT n.id, n.name, n.hostname, n.ip,
           (SELECT string_agg(g.id::text, ',') FROM node_groups ng JOIN groups g
              ON g.id = ng.group_id AND g.deleted_at IS NULL WHERE ng.node_id = n.id) AS groups
         FROM nodes n WHERE n.deleted_at IS NULL ORDER BY n.id`,
      );
      return res.rows.map(toNodeRef);
    },
    async openEvents() {
      return (await pool.query<OpenKeyDbRow>(OPEN_KEYS_SQL)).rows.map(toOpenKey);
    },
    async applyTransitions(writes) {
      if (writes.length === 0) return;
      await inTransaction(pool, async (c) => {
        for (const w of writes) await apply(c, w);
      });
    },
    async events(q) {
      const { sql, args } = eventsQuery(q, postgresPlaceholder);
      return (await pool.query<EventDbRow>(sql, args)).rows.map(toEvent);
    },
    async openEventRows() {
      return (await pool.query<EventDbRow>(OPEN_ROWS_SQL)).rows.map(toEvent);
    },
  };
}
