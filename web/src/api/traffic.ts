import type {
  AdjustmentDirection,
  TrafficAdjustment,
  TrafficCalibration,
  TrafficForecast,
  TrafficStats,
} from '../../../src/protocol/traffic';
import { request } from './http';

// Wire types of the stats, forecast and bills are the server's own (src/protocol/traffic.ts).
export type {
  AdjustmentDirection,
  TrafficAdjustment,
  TrafficCalibration,
  TrafficForecast,
  TrafficStats,
};

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

/** Recorded bills (calibration) of one node's interface, newest first, revoked ones included. */
export function fetchAdjustments(
  serverId: string,
  iface: string,
  signal?: AbortSignal,
): Promise<{ items: TrafficAdjustment[] }> {
  return request(`/api/admin/nodes/${serverId}/traffic/adjustments`, {
    signal,
    query: { iface },
  });
}

export interface NewAdjustment {
  iface: string;
  cycle_start: string;
  direction: AdjustmentDirection;
  billed_bytes: number;
  note: string;
}

export function createAdjustment(
  serverId: string,
  body: NewAdjustment,
): Promise<TrafficAdjustment> {
  return request(`/api/admin/nodes/${serverId}/traffic/adjustments`, { method: 'POST', body });
}

export function revokeAdjustment(serverId: string, id: number): Promise<TrafficAdjustment> {
  return request(`/api/admin/nodes/${serverId}/traffic/adjustments/${id}/revoke`, {
    method: 'POST',
  });
}
