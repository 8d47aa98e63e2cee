import type {
  DashUpdateCheck,
  DashUpdateStatus,
  ReleaseNotes,
  RunRequestBody,
  UpdateChannel,
} from '../../../src/protocol/api/dash-update';
import { request } from './http';

// Wire types are the server's own (src/protocol/api/), so the two cannot drift apart.
export type { DashUpdateCheck, DashUpdateStatus, UpdateChannel };

const BASE = '/api/admin/system/dash-update';

export function fetchDashUpdateStatus(signal?: AbortSignal): Promise<DashUpdateStatus> {
  return request<DashUpdateStatus>(`${BASE}/status`, { signal });
}

export function checkDashUpdate(channel: UpdateChannel): Promise<DashUpdateCheck> {
  return request<DashUpdateCheck>(`${BASE}/check`, { query: { channel } });
}

export function fetchReleaseNotes(channel: UpdateChannel): Promise<ReleaseNotes> {
  return request(`${BASE}/release-notes`, { query: { channel, lang: 'en' } });
}

/** Starts a job with the plan from check; a stale plan fails as install_changed. */
export function runDashUpdate(
  action: 'update' | 'reinstall',
  plan: DashUpdateCheck,
): Promise<DashUpdateStatus> {
  const body: RunRequestBody = {
    action,
    channel: plan.target_channel,
    lang: 'en',
    target_version: action === 'reinstall' ? plan.current_version : plan.latest_version,
    expected_current_version: plan.current_version,
    expected_install_revision: plan.install_revision,
  };
  return request<DashUpdateStatus>(`${BASE}/run`, { method: 'POST', body });
}
