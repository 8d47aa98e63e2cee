import type { AlertEventQuery, AlertRuleWrite, AlertTransitionWrite } from '../ports.js';
import { RULE_COLUMNS } from './alert-rows.js';

/**
 * SQL text of the alerts repo that both engines run as it is; the builders take the engine's
 * placeholder (`?` for SQLite, `$n` for PostgreSQL) so the dynamic statements stay one piece.
 */
export type Placeholder = (index: number) => string;

export const sqlitePlaceholder: Placeholder = () => '?';
export const postgresPlaceholder: Placeholder = (i) => `$${i}`;

export const RULES_SQL = 'SELECT * FROM alert_rules WHERE deleted_at IS NULL ORDER BY id DESC';

export const SETTINGS_SQL = `SELECT enabled, channel_ids, repeat_max, flap_threshold, flap_window_min,
       created_at, updated_at
     FROM alert_settings WHERE id = 1`;

export const OPEN_KEYS_SQL = `SELECT node_id, rule_id, rule_generation, first_trigger_at, last_trigger_at,
       silenced, flapping, acked_at, repeat_count, last_notified_at,
       EXISTS (SELECT 1 FROM alert_transitions t WHERE t.event_id = e.id AND t.transition = 'opened')
         AS notified
     FROM alert_events e WHERE status = 'open'`;

export const SILENCES_SQL = 'SELECT * FROM alert_silences ORDER BY ends_at DESC, id DESC';

export const GROUPS_SQL = 'SELECT id, name FROM groups WHERE deleted_at IS NULL ORDER BY id';

export const EVENT_SELECT = `SELECT e.*, n.name AS node_name, n.hostname AS node_hostname, n.ip AS node_ip
  FROM alert_events e JOIN nodes n ON n.id = e.node_id AND n.deleted_at IS NULL`;

export const OPEN_ROWS_SQL = `${EVENT_SELECT} WHERE e.status = 'open'
  ORDER BY e.last_trigger_at DESC, e.id DESC`;

export type Arg = number | string | null;

/** The UPDATE of a live rule's changed columns (flags as 1/0, which both engines accept). */
export function ruleUpdate(
  id: number,
  changes: Partial<AlertRuleWrite>,
  newGeneration: boolean,
  now: number,
  ph: Placeholder,
): { sql: string; args: Arg[] } {
  const args: Arg[] = [now];
  const sets: string[] = [`updated_at = ${ph(1)}`];
  for (const [key, col] of Object.entries(RULE_COLUMNS) as Array<[keyof AlertRuleWrite, string]>) {
    const v = changes[key];
    if (v === undefined) continue;
    args.push(typeof v === 'boolean' ? (v ? 1 : 0) : v);
    sets.push(`${col} = ${ph(args.length)}`);
  }
  if (newGeneration) {
    args.push(now);
    sets.push('generation = generation + 1', `generation_at = ${ph(args.length)}`);
  }
  args.push(id);
  return {
    sql: `UPDATE alert_rules SET ${sets.join(', ')} WHERE id = ${ph(args.length)} AND deleted_at IS NULL`,
    args,
  };
}

/** The events of a query, newest trigger first, after the query's position. */
export function eventsQuery(q: AlertEventQuery, ph: Placeholder): { sql: string; args: Arg[] } {
  const where: string[] = [];
  const args: Arg[] = [];
  const arg = (v: Arg) => {
    args.push(v);
    return ph(args.length);
  };
  if (q.status !== 'all') where.push(`e.status = ${arg(q.status)}`);
  if (q.nodeId !== undefined) where.push(`e.node_id = ${arg(q.nodeId)}`);
  if (q.metric !== undefined) where.push(`e.metric = ${arg(q.metric)}`);
  if (q.from !== undefined) where.push(`e.last_trigger_at >= ${arg(q.from)}`);
  if (q.to !== undefined) where.push(`e.last_trigger_at <= ${arg(q.to)}`);
  if (q.after) {
    const at = q.after.lastTriggerAt;
    where.push(
      `(e.last_trigger_at < ${arg(at)} OR (e.last_trigger_at = ${arg(at)} AND e.id < ${arg(q.after.id)}))`,
    );
  }
  const sql = `${EVENT_SELECT}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}
        ORDER BY e.last_trigger_at DESC, e.id DESC LIMIT ${arg(q.limit)}`;
  return { sql, args };
}

const list = (n: number, ph: Placeholder) =>
  Array.from({ length: n }, (_, i) => ph(i + 1)).join(', ');

/** The INSERT of a new rule (generation 1); its arguments are `ruleValues`. */
export const insertRuleSql = (ph: Placeholder) =>
  `INSERT INTO alert_rules (name, enabled, metric, operator, threshold, duration_sec, cooldown_min,
     threshold_mode, threshold_offset, clear_threshold, repeat_interval_min, repeat_max,
     generation_at, created_at, updated_at, generation)
   VALUES (${list(15, ph)}, 1) RETURNING id`;

/** A new rule's values in `insertRuleSql` order, the flag as 1/0. */
export const ruleValues = (r: AlertRuleWrite, now: number): Arg[] => [
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
];

/** The INSERT of an opened event; its arguments are `openEventValues`. */
export const insertEventSql = (ph: Placeholder) =>
  `INSERT INTO alert_events (rule_id, rule_generation, rule_name, node_id, metric,
     first_trigger_at, last_trigger_at, current_value, effective_threshold, title, message, why,
     silenced, flapping, last_notified_at, status)
   VALUES (${list(15, ph)}, 'open') RETURNING id`;

/** An opened event's values in `insertEventSql` order, flags as 1/0. */
export const openEventValues = (w: Extract<AlertTransitionWrite, { kind: 'open' }>): Arg[] => [
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
];
