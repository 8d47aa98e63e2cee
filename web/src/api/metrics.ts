import { request } from './http';

export const HISTORY_RANGES = ['30m', '1h', '12h', '24h', '1w', '15d', '30d'] as const;
export type HistoryRange = (typeof HISTORY_RANGES)[number];

export type HistoryAgg = 'avg' | 'max' | 'min' | 'last';

/** GET /api/metrics/history answer (reference §4.5). */
export interface HistoryResponse {
  server_id: number;
  metric: string;
  range: HistoryRange;
  agg: HistoryAgg;
  step_sec: number;
  points: { ts: string; value: number | null }[];
}

export interface HistoryQuery {
  serverId: string;
  metric: string;
  range: HistoryRange;
  agg?: HistoryAgg;
  device?: string;
}

export function fetchHistory(q: HistoryQuery, signal?: AbortSignal): Promise<HistoryResponse> {
  return request<HistoryResponse>('/api/metrics/history', {
    signal,
    query: {
      server_id: q.serverId,
      metric: q.metric,
      range: q.range,
      agg: q.agg,
      device: q.device,
    },
  });
}

export interface UptimeDay {
  date: string;
  percent: number | null;
  observed_ms: number;
}

/** GET /api/metrics/uptime answer (spec §2.5). */
export interface UptimeResponse {
  enabled: boolean;
  timezone: string;
  generated_at: string;
  warning_sla: number;
  error_sla: number;
  nodes: { server_id: string; days: UptimeDay[] }[];
}

export interface UptimeDayResponse {
  date: string;
  hours: (number | null)[];
  observed_ms: number[];
}

export function fetchUptime(signal?: AbortSignal): Promise<UptimeResponse> {
  return request<UptimeResponse>('/api/metrics/uptime', { signal });
}

export function fetchUptimeDay(
  serverId: string,
  date: string,
  signal?: AbortSignal,
): Promise<UptimeDayResponse> {
  return request<UptimeDayResponse>('/api/metrics/uptime/day', {
    signal,
    query: { server_id: serverId, date },
  });
}

export type GuestMode = 'disabled' | 'by_node';

export interface AccessSettings {
  history_guest_access_mode: GuestMode;
  traffic_guest_access_mode: GuestMode;
}

export function fetchAccess(signal?: AbortSignal): Promise<AccessSettings> {
  return request<AccessSettings>('/api/statistics/access', { signal });
}

export interface VersionInfo {
  version: string;
  node_version: string;
}

export function fetchVersion(signal?: AbortSignal): Promise<VersionInfo> {
  return request<VersionInfo>('/api/version/', { signal, auth: false });
}
