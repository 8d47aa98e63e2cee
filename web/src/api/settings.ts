import { request } from './http';
import type { GuestMode } from './metrics';

/** GET /api/admin/system/settings/ (spec §2.10, reference §9.1). */
export interface SystemSettings {
  history_guest_access_mode: GuestMode;
  dash_update_channel: 'release' | 'prerelease';
  dash_update_mode: 'manual' | 'notify' | 'auto';
  logo_url: string;
  page_title: string;
  topbar_text: string;
  uptime_guest_visible: boolean;
  uptime_warning_sla: number;
  uptime_error_sla: number;
}

export function fetchSystemSettings(signal?: AbortSignal): Promise<SystemSettings> {
  return request<SystemSettings>('/api/admin/system/settings/', { signal });
}

export function patchSystemSettings(patch: Partial<SystemSettings>): Promise<void> {
  return request<void>('/api/admin/system/settings/', { method: 'PATCH', body: patch });
}

/** GET /api/statistics/traffic/settings (reference §6.1). */
export interface TrafficSettings {
  guest_access_mode: GuestMode;
  usage_mode: 'lite' | 'billing';
  direction_mode: 'out' | 'both' | 'max';
  cycle_mode?: string;
  billing_timezone?: string;
}

export type TrafficSettingsPatch = Partial<
  Pick<TrafficSettings, 'guest_access_mode' | 'usage_mode' | 'direction_mode'>
>;

export function fetchTrafficSettings(signal?: AbortSignal): Promise<TrafficSettings> {
  return request<TrafficSettings>('/api/statistics/traffic/settings', { signal });
}

export function patchTrafficSettings(patch: TrafficSettingsPatch): Promise<void> {
  return request<void>('/api/statistics/traffic/settings', { method: 'PATCH', body: patch });
}
