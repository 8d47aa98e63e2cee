import { request } from './http';

/** Stats of one period (reference §6.5, spec §2.4). */
export interface TrafficStats {
  in_bytes: number;
  out_bytes: number;
  p95_enabled: boolean;
  p95_status:
    'available' | 'disabled' | 'lite_mode' | 'insufficient_samples' | 'snapshot_without_p95';
  in_p95_bytes_per_sec: number | null;
  out_p95_bytes_per_sec: number | null;
  selected_p95_bytes_per_sec: number | null;
  in_peak_bytes_per_sec: number;
  out_peak_bytes_per_sec: number;
  selected_peak_bytes_per_sec: number;
  selected_bytes: number;
  selected_bytes_direction: 'out' | 'in' | 'total';
  selected_peak_direction: 'out' | 'in' | 'total';
  selected_p95_direction?: 'out' | 'in' | 'total';
  sample_count: number;
  expected_sample_count: number;
  effective_start: string;
  effective_end: string;
  coverage_ratio: number;
  covered_until: string;
  gap_count: number;
  reset_count: number;
  cycle_complete: boolean;
  data_complete: boolean;
  status: 'provisional' | 'grace' | 'sealed' | 'stale';
}

export interface TrafficForecast {
  projected_selected_bytes: number;
  projected_selected_bytes_low: number;
  projected_selected_bytes_high: number;
  projected_p95_bytes_per_sec: number | null;
  observed_ratio: number;
}

export interface TrafficSummary {
  server_id: number;
  server_name?: string;
  iface: string;
  usage_mode: 'lite' | 'billing';
  direction_mode: 'out' | 'both' | 'max';
  cycle: {
    mode: string;
    billing_start_day: number;
    billing_anchor_date?: string;
    timezone: string;
    start: string;
    end: string;
  };
  stats: TrafficStats;
  forecast?: TrafficForecast;
}

export interface TrafficDay {
  start: string;
  end: string;
  stats: TrafficStats;
}

export type TrafficPeriod = 'current' | 'previous';

export function fetchIfaces(serverId: string, signal?: AbortSignal): Promise<{ name: string }[]> {
  return request('/api/statistics/traffic/ifaces', { signal, query: { server_id: serverId } });
}

export function fetchTrafficSummary(
  serverId: string,
  iface: string,
  signal?: AbortSignal,
): Promise<TrafficSummary> {
  return request('/api/statistics/traffic/summary', {
    signal,
    query: { server_id: serverId, iface },
  });
}

export function fetchTrafficDaily(
  serverId: string,
  iface: string,
  period: TrafficPeriod,
  signal?: AbortSignal,
): Promise<{ items: TrafficDay[] }> {
  return request('/api/statistics/traffic/daily', {
    signal,
    query: { server_id: serverId, iface, period },
  });
}

export function fetchTrafficMonthly(
  serverId: string,
  iface: string,
  months: number,
  signal?: AbortSignal,
): Promise<{ includes_current: boolean; items: TrafficSummary[] }> {
  return request('/api/statistics/traffic/monthly', {
    signal,
    query: { server_id: serverId, iface, months, period: 'current' },
  });
}

/** Spec §2.8, with progress. */
export interface RebuildState {
  server_id: number;
  status: 'idle' | 'running' | 'completed' | 'failed';
  running: boolean;
  started_at?: string;
  finished_at?: string;
  code?: string;
  error?: string;
  chunks_done: number;
  chunks_total: number;
}

export function fetchRebuildState(signal?: AbortSignal): Promise<RebuildState> {
  return request('/api/admin/nodes/traffic/rebuild', { signal });
}

export function startRebuild(id: number): Promise<RebuildState> {
  return request(`/api/admin/nodes/${id}/traffic/rebuild`, { method: 'POST' });
}
