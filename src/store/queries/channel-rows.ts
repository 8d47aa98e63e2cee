import type {
  ChannelBacklog,
  ChannelRow,
  OutboxItem,
  OutboxState,
  PendingTransition,
} from '../ports.js';

/** Channel and outbox rows as both engines store them (flags 1/0) and their port shapes. */
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

export const toItem = (row: ItemDbRow): OutboxItem => ({
  id: row.id,
  channelId: row.channel_id,
  dedupeKey: row.dedupe_key,
  payload: row.payload,
  leasedFrom: row.state,
  attempts: row.attempts,
  probes: row.probes,
});

/** Unsent items: what a channel change pauses, wakes or discards, and what the backlog counts. */
export const UNSENT = `state IN ('pending', 'sending', 'retry', 'blocked', 'paused')`;

/** Per channel: unsent and blocked items, the next retry and the next probe (one SQL for both). */
export const BACKLOG_SQL = `SELECT channel_id,
       SUM(CASE WHEN ${UNSENT} THEN 1 ELSE 0 END) AS pending,
       SUM(CASE WHEN state = 'blocked' THEN 1 ELSE 0 END) AS blocked,
       MIN(CASE WHEN state = 'retry' THEN next_at END) AS next_retry,
       MIN(CASE WHEN state = 'blocked' THEN next_at END) AS next_probe
     FROM notify_outbox WHERE ${UNSENT} GROUP BY channel_id`;

export interface BacklogDbRow {
  channel_id: number;
  pending: number;
  blocked: number;
  next_retry: number | null;
  next_probe: number | null;
}

export function toBacklog(rows: readonly BacklogDbRow[]): Map<number, ChannelBacklog> {
  const out = new Map<number, ChannelBacklog>();
  for (const r of rows) {
    out.set(r.channel_id, {
      pending: r.pending,
      blocked: r.blocked,
      nextRetryAt: r.next_retry,
      nextProbeAt: r.next_probe,
    });
  }
  return out;
}
