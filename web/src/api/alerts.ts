import { request } from './http';

export {
  ALERT_DURATIONS,
  ALERT_METRICS,
  ALERT_OPERATORS,
  CORE_PLUS_METRICS,
} from '../../../src/protocol/alert-metrics';

import type {
  AlertEvent,
  AlertEventPage,
  AlertEventQuery,
  AlertMounts,
  AlertRule,
  AlertServers,
  AlertSettings,
  AlertSilence,
  AlertSilences,
  AlertSummary,
  AlertSummaryItem,
  AlertWhy,
  CreatedId,
  SilenceInput,
  SilenceScope,
} from '../../../src/protocol/api/alerts';

// Wire types are the server's own (src/protocol/api/), so the two cannot drift apart.
export type {
  AlertEvent,
  AlertEventPage,
  AlertEventQuery,
  AlertMounts,
  AlertRule,
  AlertSettings,
  AlertSilence,
  AlertSummaryItem,
  AlertWhy,
  SilenceScope,
};
export type AlertRuleInput = Omit<AlertRule, 'id' | 'created_at' | 'updated_at'>;

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
  request<AlertSilences>('/api/admin/alerts/silences/', { signal });

export const createSilence = (body: SilenceInput) =>
  request<CreatedId>('/api/admin/alerts/silences/', { method: 'POST', body });

export const deleteSilence = (id: number) =>
  request<void>(`/api/admin/alerts/silences/${id}`, { method: 'DELETE' });

export const listAlertEvents = (q: AlertEventQuery, signal?: AbortSignal) =>
  request<AlertEventPage>('/api/admin/alerts/events/', {
    signal,
    query: { ...q },
  });

export const alertSummary = (signal?: AbortSignal) =>
  request<AlertSummary>('/api/admin/alerts/events/summary', { signal });

export const alertServers = (signal?: AbortSignal) =>
  request<AlertServers>('/api/admin/alerts/events/servers', { signal });
