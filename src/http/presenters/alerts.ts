import { Type } from 'typebox';
import { AppError } from '../../errors/app-error.js';
import { parseRfc3339 } from '../../platform/rfc3339.js';
import { rfc3339 } from '../../platform/time-format.js';
import type { SilenceView } from '../../domain/alerts/service.js';
import type { AlertEventRow, AlertRuleRow, AlertWhy } from '../../store/ports.js';
import type {
  AlertEvent,
  AlertRule,
  AlertSilence,
  AlertWhy as AlertWhyWire,
} from '../../protocol/api/alerts.js';

/** Any JSON object; alert bodies are validated field by field in the domain (invalid_fields). */
export const LooseBody = Type.Record(Type.String(), Type.Unknown());

export function presentRule(r: AlertRuleRow): AlertRule {
  return {
    id: r.id,
    name: r.name,
    enabled: r.enabled,
    metric: r.metric,
    operator: r.operator,
    threshold: r.threshold,
    duration_sec: r.durationSec,
    cooldown_min: r.cooldownMin,
    threshold_mode: r.thresholdMode,
    threshold_offset: r.thresholdOffset,
    clear_threshold: r.clearThreshold,
    repeat_interval_min: r.repeatIntervalMin,
    repeat_max: r.repeatMax,
    created_at: rfc3339(r.createdAt),
    updated_at: rfc3339(r.updatedAt),
  };
}

/** An alert record (spec §2.9); absent optional values are omitted, never null. */
export function presentEvent(e: AlertEventRow): AlertEvent {
  return {
    id: e.id,
    rule_id: e.ruleId,
    rule_generation: e.ruleGeneration,
    server_id: e.nodeId,
    server_name: e.nodeName,
    server_hostname: e.nodeHostname,
    ...(e.nodeIp ? { server_ip: e.nodeIp } : {}),
    status: e.status,
    metric: e.metric,
    rule_name: e.ruleName,
    first_trigger_at: rfc3339(e.firstTriggerAt),
    last_trigger_at: rfc3339(e.lastTriggerAt),
    ...(e.closedAt !== null ? { closed_at: rfc3339(e.closedAt) } : {}),
    ...(e.currentValue !== null ? { current_value: e.currentValue } : {}),
    ...(e.effectiveThreshold !== null ? { effective_threshold: e.effectiveThreshold } : {}),
    ...(e.closeReason !== null ? { close_reason: e.closeReason } : {}),
    ...(e.title !== null ? { title: e.title } : {}),
    ...(e.message !== null ? { message: e.message } : {}),
    ...(e.why !== null ? { why: presentWhy(e.why) } : {}),
    ...(e.ackedAt !== null ? { acked_at: rfc3339(e.ackedAt) } : {}),
    silenced: e.silenced,
    flapping: e.flapping,
    repeat_count: e.repeatCount,
  };
}

/** "Why it fired": the window (RFC 3339) and the values that crossed the threshold. */
function presentWhy(w: AlertWhy): AlertWhyWire {
  return {
    from: rfc3339(w.from),
    to: rfc3339(w.to),
    duration_sec: w.durationSec,
    operator: w.operator,
    threshold: w.threshold,
    ...(w.clearThreshold !== undefined ? { clear_threshold: w.clearThreshold } : {}),
    values: w.values,
    samples: w.samples,
    min: w.min,
    max: w.max,
  };
}

export function presentSilence(s: SilenceView): AlertSilence {
  return {
    id: s.id,
    scope: s.scope,
    target_id: s.targetId,
    ...(s.targetName !== null ? { target_name: s.targetName } : {}),
    ends_at: rfc3339(s.endsAt),
    note: s.note,
    active: s.active,
    created_at: rfc3339(s.createdAt),
  };
}

/** `<last_trigger_at, RFC 3339 UTC with nanoseconds>,<event id>` (reference §8.7). */
export function encodeCursor(e: { lastTriggerAt: number; id: number }): string {
  const iso = rfc3339(e.lastTriggerAt).slice(0, -1);
  const ms = String(((e.lastTriggerAt % 1000) + 1000) % 1000).padStart(3, '0');
  return `${iso}.${ms}000000Z,${e.id}`;
}

export function decodeCursor(text: string): { lastTriggerAt: number; id: number } {
  const comma = text.lastIndexOf(',');
  const at = comma > 0 ? parseRfc3339(text.slice(0, comma)) : undefined;
  const idText = text.slice(comma + 1);
  if (at === undefined || !/^[1-9]\d{0,15}$/.test(idText) || !Number.isSafeInteger(Number(idText)))
    throw new AppError('invalid_request', 'cursor must be "<RFC 3339 time>,<event id>"');
  return { lastTriggerAt: at, id: Number(idText) };
}
