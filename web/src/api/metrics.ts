import type {
  AccessSettings,
  GuestMode,
  HistoryResponse,
  UptimeDay,
  UptimeDayResponse,
  UptimeResponse,
  VersionInfo,
} from '../../../src/protocol/api/metrics';
import type { HistoryAgg, HistoryRange } from '../../../src/protocol/history-metrics';
import { request } from './http';

// Wire types are the server's own (src/protocol/api/), so the two cannot drift apart.
// The ranges are a plain constant module (no schema code enters the bundle).
export { HISTORY_RANGES } from '../../../src/protocol/history-metrics';
export { GUEST_MODES, oneOf } from '../../../src/protocol/api/constants';
export type {
  AccessSettings,
  GuestMode,
  HistoryAgg,
  HistoryRange,
  HistoryResponse,
  UptimeDay,
  UptimeDayResponse,
  UptimeResponse,
  VersionInfo,
};

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

export function fetchAccess(signal?: AbortSignal): Promise<AccessSettings> {
  return request<AccessSettings>('/api/statistics/access', { signal });
}

export function fetchVersion(signal?: AbortSignal): Promise<VersionInfo> {
  return request<VersionInfo>('/api/version/', { signal, auth: false });
}
