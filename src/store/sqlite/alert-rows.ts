import type { AlertEventRow, AlertRuleRow, AlertRuleWrite, AlertWhy } from '../ports.js';

/** Row shapes and mappers of the alert tables (used by sqliteAlertsRepo). */
export interface RuleDbRow {
  id: number;
  name: string;
  enabled: number;
  metric: string;
  operator: string;
  threshold: number;
  duration_sec: number;
  cooldown_min: number;
  threshold_mode: string;
  threshold_offset: number;
  clear_threshold: number | null;
  repeat_interval_min: number;
  repeat_max: number | null;
  generation: number;
  generation_at: number;
  created_at: number;
  updated_at: number;
}

export interface EventDbRow {
  id: number;
  rule_id: number;
  rule_generation: number;
  rule_name: string;
  node_id: number;
  node_name: string;
  node_hostname: string;
  node_ip: string | null;
  status: 'open' | 'closed';
  metric: string;
  first_trigger_at: number;
  last_trigger_at: number;
  closed_at: number | null;
  current_value: number | null;
  effective_threshold: number | null;
  close_reason: string | null;
  title: string | null;
  message: string | null;
  why: string | null;
  acked_at: number | null;
  silenced: number;
  flapping: number;
  repeat_count: number;
}

export const RULE_COLUMNS: Record<keyof AlertRuleWrite, string> = {
  name: 'name',
  enabled: 'enabled',
  metric: 'metric',
  operator: 'operator',
  threshold: 'threshold',
  durationSec: 'duration_sec',
  cooldownMin: 'cooldown_min',
  thresholdMode: 'threshold_mode',
  thresholdOffset: 'threshold_offset',
  clearThreshold: 'clear_threshold',
  repeatIntervalMin: 'repeat_interval_min',
  repeatMax: 'repeat_max',
};

export const toRule = (r: RuleDbRow): AlertRuleRow => ({
  id: r.id,
  name: r.name,
  enabled: r.enabled === 1,
  metric: r.metric,
  operator: r.operator,
  threshold: r.threshold,
  durationSec: r.duration_sec,
  cooldownMin: r.cooldown_min,
  thresholdMode: r.threshold_mode,
  thresholdOffset: r.threshold_offset,
  clearThreshold: r.clear_threshold,
  repeatIntervalMin: r.repeat_interval_min,
  repeatMax: r.repeat_max,
  generation: r.generation,
  generationAt: r.generation_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const toEvent = (r: EventDbRow): AlertEventRow => ({
  id: r.id,
  ruleId: r.rule_id,
  ruleGeneration: r.rule_generation,
  ruleName: r.rule_name,
  nodeId: r.node_id,
  nodeName: r.node_name,
  nodeHostname: r.node_hostname,
  nodeIp: r.node_ip,
  status: r.status,
  metric: r.metric,
  firstTriggerAt: r.first_trigger_at,
  lastTriggerAt: r.last_trigger_at,
  closedAt: r.closed_at,
  currentValue: r.current_value,
  effectiveThreshold: r.effective_threshold,
  closeReason: r.close_reason,
  title: r.title,
  message: r.message,
  why: parseWhy(r.why),
  ackedAt: r.acked_at,
  silenced: r.silenced === 1,
  flapping: r.flapping === 1,
  repeatCount: r.repeat_count,
});

export function parseWhy(text: string | null): AlertWhy | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as AlertWhy;
  } catch {
    return null;
  }
}
