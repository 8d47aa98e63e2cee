import type {
  SystemSettings,
  SystemSettingsPatch,
  TrafficSettings,
  TrafficSettingsPatch,
} from '../../../src/protocol/api/settings';
import { request } from './http';

// Wire types are the server's own (src/protocol/api/), so the two cannot drift apart.
export type { SystemSettings, TrafficSettings, TrafficSettingsPatch };

export function fetchSystemSettings(signal?: AbortSignal): Promise<SystemSettings> {
  return request<SystemSettings>('/api/admin/system/settings/', { signal });
}

export function patchSystemSettings(patch: SystemSettingsPatch): Promise<void> {
  return request<void>('/api/admin/system/settings/', { method: 'PATCH', body: patch });
}

export function fetchTrafficSettings(signal?: AbortSignal): Promise<TrafficSettings> {
  return request<TrafficSettings>('/api/statistics/traffic/settings', { signal });
}

export function patchTrafficSettings(patch: TrafficSettingsPatch): Promise<void> {
  return request<void>('/api/statistics/traffic/settings', { method: 'PATCH', body: patch });
}
