import { request } from './http';

export type UpdateChannel = 'release' | 'prerelease';

/** GET /api/admin/system/dash-update/status (docs/operations.md). */
export interface DashUpdateStatus {
  id?: string;
  status: 'idle' | 'running' | 'completed' | 'failed';
  action?: 'update' | 'reinstall';
  channel?: UpdateChannel;
  origin?: 'admin' | 'auto';
  target_version?: string;
  from_version?: string;
  phase?: string;
  failure_code?: string;
  started_at?: string;
  finished_at?: string;
  exit_code?: number;
  log_tail?: string;
  available: boolean;
  unavailable_reason?: string;
  current_version: string;
  update_available_version?: string;
  last_checked_at?: string;
}

export interface DashUpdateCheck {
  current_version: string;
  current_channel: UpdateChannel;
  target_channel: UpdateChannel;
  latest_version: string;
  install_revision: string;
  version_status: 'available' | 'current' | 'ahead' | 'unknown';
  bundled_node_version: string;
}

const BASE = '/api/admin/system/dash-update';

export function fetchDashUpdateStatus(signal?: AbortSignal): Promise<DashUpdateStatus> {
  return request<DashUpdateStatus>(`${BASE}/status`, { signal });
}

export function checkDashUpdate(channel: UpdateChannel): Promise<DashUpdateCheck> {
  return request<DashUpdateCheck>(`${BASE}/check`, { query: { channel } });
}

export function fetchReleaseNotes(
  channel: UpdateChannel,
): Promise<{ source_url: string; html: string }> {
  return request(`${BASE}/release-notes`, { query: { channel, lang: 'en' } });
}

/** Starts a job with the plan from check; a stale plan fails as install_changed. */
export function runDashUpdate(
  action: 'update' | 'reinstall',
  plan: DashUpdateCheck,
): Promise<DashUpdateStatus> {
  return request<DashUpdateStatus>(`${BASE}/run`, {
    method: 'POST',
    body: {
      action,
      channel: plan.target_channel,
      lang: 'en',
      target_version: action === 'reinstall' ? plan.current_version : plan.latest_version,
      expected_current_version: plan.current_version,
      expected_install_revision: plan.install_revision,
    },
  });
}
