import type {
  AdjustmentDirection,
  NewAdjustment,
  RebuildState,
  TrafficAdjustment,
  TrafficCalibration,
  TrafficAdjustments,
  TrafficDaily,
  TrafficDay,
  TrafficForecast,
  TrafficIfaces,
  TrafficMonthly,
  TrafficStats,
  TrafficSummary,
} from '../../../src/protocol/traffic';
import { request } from './http';

// Wire types are the server's own (src/protocol/traffic.ts), so the two cannot drift apart.
export type {
  AdjustmentDirection,
  NewAdjustment,
  RebuildState,
  TrafficAdjustment,
  TrafficCalibration,
  TrafficDay,
  TrafficForecast,
  TrafficStats,
  TrafficSummary,
};

export type TrafficPeriod = 'current' | 'previous';

export function fetchIfaces(serverId: string, signal?: AbortSignal): Promise<TrafficIfaces> {
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
): Promise<TrafficDaily> {
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
): Promise<TrafficMonthly> {
  return request('/api/statistics/traffic/monthly', {
    signal,
    query: { server_id: serverId, iface, months, period: 'current' },
  });
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
): Promise<TrafficAdjustments> {
  return request(`/api/admin/nodes/${serverId}/traffic/adjustments`, {
    signal,
    query: { iface },
  });
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
