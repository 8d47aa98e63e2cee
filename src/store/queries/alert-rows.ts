import type {
  AlertEventRow,
  AlertNodeRef,
  AlertOpenEventKey,
  AlertRuleRow,
  AlertRuleWrite,
  AlertSettingsRow,
  AlertSilenceRow,
  AlertWhy,
} from '../ports.js';

/** Alert rows as both engines store them (snake_case columns, flags 1/0) and their port shapes. */
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

export interface SettingsDbRow {
  enabled: number;
  channel_ids: string;
  repeat_max: number;
  flap_threshold: number;
  flap_window_min: number;
  created_at: number;
  updated_at: number;
}

export const toSettings = (r: SettingsDbRow): AlertSettingsRow => ({
  enabled: r.enabled === 1,
  channelIds: JSON.parse(r.channel_ids) as number[],
  repeatMax: r.repeat_max,
  flapThreshold: r.flap_threshold,
  flapWindowMin: r.flap_window_min,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export interface OpenKeyDbRow {
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

export const toOpenKey = (e: OpenKeyDbRow): AlertOpenEventKey => ({
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
});

/** A live node with its live groups' ids joined by commas (null when it has none). */
export interface NodeRefDbRow {
  id: number;
  name: string;
  hostname: string;
  ip: string | null;
  groups: string | null;
}

export const toNodeRef = (n: NodeRefDbRow): AlertNodeRef => ({
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
});

export interface SilenceDbRow {
  id: number;
  scope: string;
  target_id: number;
  ends_at: number;
  note: string;
  created_at: number;
}

export const toSilence = (r: SilenceDbRow): AlertSilenceRow => ({
  id: r.id,
  scope: r.scope as AlertSilenceRow['scope'],
  targetId: r.target_id,
  endsAt: r.ends_at,
  note: r.note,
  createdAt: r.created_at,
});

/** What `ackEvent` answers, from the event's node, rule and status. */
export const toAckResult = (r: {
  node_id: number;
  rule_id: number;
  status: string;
}): { nodeId: number; ruleId: number; status: 'open' | 'closed' } => ({
  nodeId: r.node_id,
  ruleId: r.rule_id,
  status: r.status === 'open' ? 'open' : 'closed',
});
