import type { ChannelRow, OutboxState, PendingTransition } from '../ports.js';

/** Row shapes and mappers of the channel tables (used by sqliteChannelsRepo). */
export interface ChannelDbRow {
  id: number;
  name: string;
  type: string;
  config_sealed: string;
  enabled: number;
  revision: number;
  created_at: number;
  updated_at: number;
  last_success_at: number | null;
  last_failure_at: number | null;
  consecutive_failures: number;
  last_error_code: string | null;
  last_error: string | null;
}

export const toChannel = (r: ChannelDbRow): ChannelRow => ({
  id: r.id,
  name: r.name,
  type: r.type,
  sealedConfig: r.config_sealed,
  enabled: r.enabled === 1,
  revision: r.revision,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  lastSuccessAt: r.last_success_at,
  lastFailureAt: r.last_failure_at,
  consecutiveFailures: r.consecutive_failures,
  lastErrorCode: r.last_error_code,
  lastError: r.last_error,
});

export interface ItemDbRow {
  id: number;
  channel_id: number;
  dedupe_key: string;
  payload: string;
  state: OutboxState;
  attempts: number;
  probes: number;
}

export interface PendingTransitionDb {
  id: number;
  event_id: number;
  transition: 'opened' | 'closed' | 'repeat';
  seq: number;
  close_reason: string | null;
  created_at: number;
  flapping: number;
  rule_id: number;
  rule_name: string;
  node_id: number;
  node_name: string;
  metric: string;
  current_value: number | null;
  effective_threshold: number | null;
  why: string | null;
}

export const toTransition = (r: PendingTransitionDb): PendingTransition => ({
  id: r.id,
  eventId: r.event_id,
  transition: r.transition,
  seq: r.seq,
  closeReason: r.close_reason,
  createdAt: r.created_at,
  flapping: r.flapping === 1,
  ruleId: r.rule_id,
  ruleName: r.rule_name,
  nodeId: r.node_id,
  nodeName: r.node_name,
  metric: r.metric,
  currentValue: r.current_value,
  effectiveThreshold: r.effective_threshold,
  why: r.why,
});
