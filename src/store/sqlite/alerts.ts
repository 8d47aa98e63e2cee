import type BetterSqlite3 from 'better-sqlite3';
import type { AlertRuleWrite, AlertsRepo, AlertTransitionWrite } from '../ports.js';
import { sqliteAlertSilences } from './alert-silences.js';
import { RULE_COLUMNS, toEvent, toRule, type EventDbRow, type RuleDbRow } from './alert-rows.js';

const EVENT_SELECT = `SELECT e.*, n.name AS node_name, n.hostname AS node_hostname, n.ip AS node_ip
  FROM alert_events e JOIN nodes n ON n.id = e.node_id AND n.deleted_at IS NULL`;

/** Alerts on SQLite with prepared statements; transitions commit with their outbox rows. */
export function sqliteAlertsRepo(db: BetterSqlite3.Database): AlertsRepo {
  const listRules = db.prepare<[], RuleDbRow>(
    'SELECT * FROM alert_rules WHERE deleted_at IS NULL ORDER BY id DESC',
  );
  const insertRule = db.prepare(
    `INSERT INTO alert_rules (name, enabled, metric, operator, threshold, duration_sec, cooldown_min,
       threshold_mode, threshold_offset, clear_threshold, repeat_interval_min, repeat_max,
       generation, generation_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)`,
  );
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
  const getSettings = db.prepare<
    [],
    {
      enabled: number;
      channel_ids: string;
      repeat_max: number;
      flap_threshold: number;
      flap_window_min: number;
      created_at: number;
      updated_at: number;
    }
  >(
    `SELECT enabled, channel_ids, repeat_max, flap_threshold, flap_window_min, created_at, updated_at
     FROM alert_settings WHERE id = 1`,
  );
  const putSettings = db.prepare(
    `INSERT INTO alert_settings (id, enabled, channel_ids, repeat_max, flap_threshold, flap_window_min,
       created_at, updated_at) VALUES (1, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET enabled = excluded.enabled, channel_ids = excluded.channel_ids,
       repeat_max = excluded.repeat_max, flap_threshold = excluded.flap_threshold,
       flap_window_min = excluded.flap_window_min, updated_at = excluded.updated_at`,
  );
  const nodes = db.prepare<
    [],
    { id: number; name: string; hostname: string; ip: string | null; groups: string | null }
  >(
    `SELECT n.id, n.name, n.hostname, n.ip,
       (SELECT group_concat(g.id) FROM node_groups ng JOIN groups g ON g.id = ng.group_id
          AND g.deleted_at IS NULL WHERE ng.node_id = n.id) AS groups
     FROM nodes n WHERE n.deleted_at IS NULL ORDER BY n.id`,
  );
  const openKeys = db.prepare<
    [],
    {
      node_id: number;
      rule_id: number;
      rule_generation: number;
      first_trigger_at: number;
      last_trigger_at: number;
      notified: number;
      silenced: number;
      flapping: number;
      acked_at: number | null;
      repeat_count: number;
      last_notified_at: number | null;
    }
  >(
    `SELECT node_id, rule_id, rule_generation, first_trigger_at, last_trigger_at, silenced, flapping,
       acked_at, repeat_count, last_notified_at,
       EXISTS (SELECT 1 FROM alert_transitions t WHERE t.event_id = e.id AND t.transition = 'opened')
         AS notified
     FROM alert_events e WHERE status = 'open'`,
  );
  const insertEvent = db.prepare(
    `INSERT INTO alert_events (rule_id, rule_generation, rule_name, node_id, metric, status,
       first_trigger_at, last_trigger_at, current_value, effective_threshold, title, message, why,
       silenced, flapping, last_notified_at)
     VALUES (?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
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
  const openRows = db.prepare<[], EventDbRow>(
    `${EVENT_SELECT} WHERE e.status = 'open' ORDER BY e.last_trigger_at DESC, e.id DESC`,
  );

  const apply = db.transaction((writes: readonly AlertTransitionWrite[]) => {
    for (const w of writes) {
      if (w.kind === 'refresh') {
        refreshEvent.run(w.at, w.value, w.nodeId, w.ruleId);
      } else if (w.kind === 'open') {
        const res = insertEvent.run(
          w.ruleId,
          w.ruleGeneration,
          w.ruleName,
          w.nodeId,
          w.metric,
          w.at,
          w.at,
          w.value,
          w.threshold,
          w.title,
          w.message,
          JSON.stringify(w.why),
          w.silenced ? 1 : 0,
          w.flapping ? 1 : 0,
          w.notify ? w.at : null,
        );
        if (w.notify) insertTransition.run(res.lastInsertRowid, 'opened', 0, null, w.at);
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
      const res = insertRule.run(
        r.name,
        r.enabled ? 1 : 0,
        r.metric,
        r.operator,
        r.threshold,
        r.durationSec,
        r.cooldownMin,
        r.thresholdMode,
        r.thresholdOffset,
        r.clearThreshold,
        r.repeatIntervalMin,
        r.repeatMax,
        now,
        now,
        now,
      );
      return Number(res.lastInsertRowid);
    },
    async updateRule(id, changes, newGeneration, now) {
      const sets: string[] = ['updated_at = ?'];
      const args: Array<number | string | null> = [now];
      for (const [key, col] of Object.entries(RULE_COLUMNS) as Array<
        [keyof AlertRuleWrite, string]
      >) {
        const v = changes[key];
        if (v === undefined) continue;
        sets.push(`${col} = ?`);
        args.push(typeof v === 'boolean' ? (v ? 1 : 0) : v);
      }
      if (newGeneration) {
        sets.push('generation = generation + 1', 'generation_at = ?');
        args.push(now);
      }
      const res = db
        .prepare(`UPDATE alert_rules SET ${sets.join(', ')} WHERE id = ? AND deleted_at IS NULL`)
        .run(...args, id);
      return res.changes > 0;
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
      if (!row) return undefined;
      return {
        enabled: row.enabled === 1,
        channelIds: JSON.parse(row.channel_ids) as number[],
        repeatMax: row.repeat_max,
        flapThreshold: row.flap_threshold,
        flapWindowMin: row.flap_window_min,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
      };
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
      return nodes.all().map((n) => ({
        id: n.id,
        name: n.name,
        hostname: n.hostname,
        ip: n.ip,
        groupIds: n.groups
          ? n.groups
              .split(',')
              .map(Number)
              .sort((a, b) => a - b)
          : [],
      }));
    },
    async openEvents() {
      return openKeys.all().map((e) => ({
        nodeId: e.node_id,
        ruleId: e.rule_id,
        generation: e.rule_generation,
        firstTriggerAt: e.first_trigger_at,
        lastTriggerAt: e.last_trigger_at,
        notified: e.notified === 1,
        silenced: e.silenced === 1,
        flapping: e.flapping === 1,
        ackedAt: e.acked_at,
        repeatCount: e.repeat_count,
        lastNotifiedAt: e.last_notified_at,
      }));
    },
    async applyTransitions(writes) {
      if (writes.length > 0) apply(writes);
    },
    async events(q) {
      const where: string[] = [];
      const args: Array<number | string> = [];
      if (q.status !== 'all') {
        where.push('e.status = ?');
        args.push(q.status);
      }
      if (q.nodeId !== undefined) {
        where.push('e.node_id = ?');
        args.push(q.nodeId);
      }
      if (q.metric !== undefined) {
        where.push('e.metric = ?');
        args.push(q.metric);
      }
      if (q.from !== undefined) {
        where.push('e.last_trigger_at >= ?');
        args.push(q.from);
      }
      if (q.to !== undefined) {
        where.push('e.last_trigger_at <= ?');
        args.push(q.to);
      }
      if (q.after) {
        where.push('(e.last_trigger_at < ? OR (e.last_trigger_at = ? AND e.id < ?))');
        args.push(q.after.lastTriggerAt, q.after.lastTriggerAt, q.after.id);
      }
      const sql = `${EVENT_SELECT}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}
        ORDER BY e.last_trigger_at DESC, e.id DESC LIMIT ?`;
      return db
        .prepare<Array<number | string>, EventDbRow>(sql)
        .all(...args, q.limit)
        .map(toEvent);
    },
    async openEventRows() {
      return openRows.all().map(toEvent);
    },
  };
}
