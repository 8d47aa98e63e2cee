import type BetterSqlite3 from 'better-sqlite3';
import type { AlertsRepo, AlertTransitionWrite } from '../ports.js';
import { sqliteAlertSilences } from './alert-silences.js';
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
  type Arg,
  OPEN_KEYS_SQL,
  OPEN_ROWS_SQL,
  RULES_SQL,
  ruleUpdate,
  SETTINGS_SQL,
  sqlitePlaceholder,
} from '../queries/alert-sql.js';

/** Alerts on SQLite with prepared statements; transitions commit with their outbox rows. */
export function sqliteAlertsRepo(db: BetterSqlite3.Database): AlertsRepo {
  const listRules = db.prepare<[], RuleDbRow>(RULES_SQL);
  const insertRule = db.prepare<Arg[], { id: number }>(insertRuleSql(sqlitePlaceholder));
  const deleteRule = db.prepare(
    'UPDATE alert_rules SET deleted_at = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL',
  );
  const deleteRuleMounts = db.prepare('DELETE FROM alert_mounts WHERE rule_id = ?');
  const listMounts = db.prepare<[], { rule_id: number; node_id: number; mounted: number }>(
    'SELECT rule_id, node_id, mounted FROM alert_mounts',
  );
  const upsertMount = db.prepare(
    `INSERT INTO alert_mounts (rule_id, node_id, mounted) VALUES (?, ?, ?)
     ON CONFLICT (rule_id, node_id) DO UPDATE SET mounted = excluded.mounted`,
  );
  const getSettings = db.prepare<[], SettingsDbRow>(SETTINGS_SQL);
  const putSettings = db.prepare(
    `INSERT INTO alert_settings (id, enabled, channel_ids, repeat_max, flap_threshold, flap_window_min,
       created_at, updated_at) VALUES (1, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET enabled = excluded.enabled, channel_ids = excluded.channel_ids,
       repeat_max = excluded.repeat_max, flap_threshold = excluded.flap_threshold,
       flap_window_min = excluded.flap_window_min, updated_at = excluded.updated_at`,
  );
  const nodes = db.prepare<[], NodeRefDbRow>(
    `SELECT n.id, n.name, n.hostname, n.ip,
       (SELECT group_concat(g.id) FROM node_groups ng JOIN groups g ON g.id = ng.group_id
          AND g.deleted_at IS NULL WHERE ng.node_id = n.id) AS groups
     FROM nodes n WHERE n.deleted_at IS NULL ORDER BY n.id`,
  );
  const openKeys = db.prepare<[], OpenKeyDbRow>(OPEN_KEYS_SQL);
  const insertEvent = db.prepare<Arg[], { id: number }>(insertEventSql(sqlitePlaceholder));
  const notifiedEvent = db.prepare<[number, number, number, number], { id: number }>(
    `UPDATE alert_events SET last_notified_at = ?, repeat_count = max(repeat_count, ?)
     WHERE node_id = ? AND rule_id = ? AND status = 'open' RETURNING id`,
  );
  const refreshEvent = db.prepare(
    `UPDATE alert_events SET last_trigger_at = ?, current_value = ?
     WHERE node_id = ? AND rule_id = ? AND status = 'open'`,
  );
  const closeEvent = db.prepare<
    [number, string, number | null, number, number, number, number],
    { id: number }
  >(
    `UPDATE alert_events SET status = 'closed', closed_at = ?, close_reason = ?,
       current_value = coalesce(?, current_value), silenced = max(silenced, ?),
       flapping = max(flapping, ?)
     WHERE node_id = ? AND rule_id = ? AND status = 'open' RETURNING id`,
  );
  const insertTransition = db.prepare(
    `INSERT INTO alert_transitions (event_id, transition, seq, close_reason, created_at)
     VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  const openRows = db.prepare<[], EventDbRow>(OPEN_ROWS_SQL);

  const apply = db.transaction((writes: readonly AlertTransitionWrite[]) => {
    for (const w of writes) {
      if (w.kind === 'refresh') {
        refreshEvent.run(w.at, w.value, w.nodeId, w.ruleId);
      } else if (w.kind === 'open') {
        const row = insertEvent.get(...openEventValues(w));
        if (row && w.notify) insertTransition.run(row.id, 'opened', 0, null, w.at);
      } else if (w.kind === 'repeat' || w.kind === 'notify_open') {
        const seq = w.kind === 'repeat' ? w.seq : 0;
        const row = notifiedEvent.get(w.at, seq, w.nodeId, w.ruleId);
        if (row)
          insertTransition.run(row.id, w.kind === 'repeat' ? 'repeat' : 'opened', seq, null, w.at);
      } else {
        const row = closeEvent.get(
          w.at,
          w.reason,
          w.value ?? null,
          w.silenced ? 1 : 0,
          w.flapping ? 1 : 0,
          w.nodeId,
          w.ruleId,
        );
        if (row && w.notify) insertTransition.run(row.id, 'closed', 0, w.reason, w.at);
      }
    }
  });

  const setMounts = db.transaction((ruleIds: number[], nodeIds: number[], mounted: boolean) => {
    for (const r of ruleIds) for (const n of nodeIds) upsertMount.run(r, n, mounted ? 1 : 0);
  });

  return {
    ...sqliteAlertSilences(db),
    async rules() {
      return listRules.all().map(toRule);
    },
    async createRule(r, now) {
      return insertRule.get(...ruleValues(r, now))!.id;
    },
    async updateRule(id, changes, newGeneration, now) {
      const { sql, args } = ruleUpdate(id, changes, newGeneration, now, sqlitePlaceholder);
      return db.prepare(sql).run(...args).changes > 0;
    },
    async deleteRule(id, now) {
      return db.transaction(() => {
        if (deleteRule.run(now, now, id).changes === 0) return false;
        deleteRuleMounts.run(id);
        return true;
      })();
    },
    async mounts() {
      return listMounts
        .all()
        .map((m) => ({ ruleId: m.rule_id, nodeId: m.node_id, mounted: m.mounted === 1 }));
    },
    async setMounts(ruleIds, nodeIds, mounted) {
      setMounts(ruleIds, nodeIds, mounted);
    },
    async settings() {
      const row = getSettings.get();
      return row === undefined ? undefined : toSettings(row);
    },
    async putSettings(w, now) {
      putSettings.run(
        w.enabled ? 1 : 0,
        JSON.stringify(w.channelIds),
        w.repeatMax,
        w.flapThreshold,
        w.flapWindowMin,
        now,
        now,
      );
    },
    async nodes() {
      return nodes.all().map(toNodeRef);
    },
    async openEvents() {
      return openKeys.all().map(toOpenKey);
    },
    async applyTransitions(writes) {
      if (writes.length > 0) apply(writes);
    },
    async events(q) {
      const { sql, args } = eventsQuery(q, sqlitePlaceholder);
      return db
        .prepare<Array<number | string | null>, EventDbRow>(sql)
        .all(...args)
        .map(toEvent);
    },
    async openEventRows() {
      return openRows.all().map(toEvent);
    },
  };
}
