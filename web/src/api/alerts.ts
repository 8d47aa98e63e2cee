import { request } from './http';

export {
  ALERT_DURATIONS,
  ALERT_METRICS,
  ALERT_OPERATORS,
  CORE_PLUS_METRICS,
} from '../../../src/protocol/alert-metrics';

/** Item of GET /api/admin/alerts/rules/ (user rules only). */
export interface AlertRule {
  id: number;
  name: string;
  enabled: boolean;
  metric: string;
  operator: string;
  threshold: number;
  duration_sec: number;
  cooldown_min: number;
  threshold_mode: 'static' | 'core_plus';
  threshold_offset: number;
  /** Hysteresis: an open alert closes only past this value; null = the threshold. */
  clear_threshold: number | null;
  repeat_interval_min: number;
  repeat_max: number | null;
  created_at: string;
  updated_at: string;
}

export type AlertRuleInput = Omit<AlertRule, 'id' | 'created_at' | 'updated_at'>;

export interface AlertMounts {
  rules: Array<{
    id: number;
    name: string;
    metric: string;
    builtin: boolean;
    enabled: boolean;
    default_mounted: boolean;
  }>;
  nodes: Array<{
    id: number;
    name: string;
    hostname: string;
    ip?: string;
    group_ids: number[];
    mounts: Array<{ rule_id: number; mounted: boolean }>;
  }>;
}

export interface AlertSettings {
  enabled: boolean;
  channel_ids: number[];
  repeat_max: number;
  flap_threshold: number;
  flap_window_min: number;
  created_at: string;
  updated_at: string;
}

export interface AlertEvent {
  id: number;
  rule_id: number;
  rule_generation: number;
  server_id: number;
  server_name: string;
  server_hostname: string;
  server_ip?: string;
  status: 'open' | 'closed';
  metric: string;
  rule_name: string;
  first_trigger_at: string;
  last_trigger_at: string;
  closed_at?: string;
  current_value?: number;
  effective_threshold?: number;
  close_reason?: string;
  title?: string;
  message?: string;
  why?: AlertWhy;
  acked_at?: string;
  silenced: boolean;
  flapping: boolean;
  repeat_count: number;
}

/** "Why it fired": the window and the values that crossed the threshold. */
export interface AlertWhy {
  from: string;
  to: string;
  duration_sec: number;
  operator: string;
  threshold: number;
  clear_threshold?: number;
  values: number[];
  samples: number;
  min: number;
  max: number;
}

export type SilenceScope = 'node' | 'group' | 'rule';

export interface AlertSilence {
  id: number;
  scope: SilenceScope;
  target_id: number;
  target_name?: string;
  ends_at: string;
  note: string;
  active: boolean;
  created_at: string;
}

export interface AlertEventPage {
  items: AlertEvent[];
  next_cursor: string | null;
  has_more: boolean;
}

export interface AlertSummaryItem {
  server_id: number;
  open_count: number;
  last_trigger_at: string;
  metric: string;
  rule_name: string;
  metrics: string[];
}

export interface AlertEventQuery {
  status?: 'open' | 'closed' | 'all';
  server_id?: number;
  metric?: string;
  from?: string;
  to?: string;
  cursor?: string;
  limit?: number;
}

export const listAlertRules = (signal?: AbortSignal) =>
  request<AlertRule[]>('/api/admin/alerts/rules/', { signal });

export const createAlertRule = (rule: AlertRuleInput) =>
  request<void>('/api/admin/alerts/rules/', { method: 'POST', body: rule });

export const updateAlertRule = (id: number, patch: Partial<AlertRuleInput>) =>
  request<void>(`/api/admin/alerts/rules/${id}`, { method: 'PATCH', body: patch });

export const deleteAlertRule = (id: number) =>
  request<void>(`/api/admin/alerts/rules/${id}`, { method: 'DELETE' });

export const getAlertMounts = (signal?: AbortSignal) =>
  request<AlertMounts>('/api/admin/alerts/mounts/', { signal });

export const setAlertMounts = (ruleIds: number[], serverIds: number[], mounted: boolean) =>
  request<void>('/api/admin/alerts/mounts/', {
    method: 'PUT',
    body: { rule_ids: ruleIds, server_ids: serverIds, mounted },
  });

export const getAlertSettings = (signal?: AbortSignal) =>
  request<AlertSettings>('/api/admin/alerts/settings/', { signal });

export const putAlertSettings = (
  enabled: boolean,
  channelIds: number[],
  extra: Partial<Pick<AlertSettings, 'repeat_max' | 'flap_threshold' | 'flap_window_min'>> = {},
) =>
  request<void>('/api/admin/alerts/settings/', {
    method: 'PUT',
    body: { enabled, channel_ids: channelIds, ...extra },
  });

export const ackAlertEvent = (id: number) =>
  request<void>(`/api/admin/alerts/events/${id}/ack`, { method: 'POST' });

export const listSilences = (signal?: AbortSignal) =>
  request<{ items: AlertSilence[] }>('/api/admin/alerts/silences/', { signal });

export const createSilence = (body: {
  scope: SilenceScope;
  target_id: number;
  ends_at: string;
  note?: string;
}) => request<{ id: number }>('/api/admin/alerts/silences/', { method: 'POST', body });

export const deleteSilence = (id: number) =>
  request<void>(`/api/admin/alerts/silences/${id}`, { method: 'DELETE' });

export const listAlertEvents = (q: AlertEventQuery, signal?: AbortSignal) =>
  request<AlertEventPage>('/api/admin/alerts/events/', {
    signal,
    query: { ...q },
  });

export const alertSummary = (signal?: AbortSignal) =>
  request<{ items: AlertSummaryItem[] }>('/api/admin/alerts/events/summary', { signal });

export const alertServers = (signal?: AbortSignal) =>
  request<{ items: Array<{ id: number; name: string }> }>('/api/admin/alerts/events/servers', {
    signal,
  });
