import { request } from './http';

export type ChannelType = 'telegram' | 'email' | 'webhook';

/** Item of GET /api/admin/alerts/channels/ (config sanitized: no secrets). */
export interface Channel {
  id: number;
  name: string;
  type: ChannelType;
  config: Record<string, unknown> | null;
  enabled: boolean;
  revision: number;
  created_at: string;
  updated_at: string;
  delivery_status: 'unknown' | 'healthy' | 'degraded' | 'disabled';
  last_success_at: string | null;
  last_failure_at: string | null;
  consecutive_failures: number;
  last_error_code: string | null;
  last_error: string | null;
  next_retry_at: string | null;
  next_probe_at: string | null;
  pending_count: number;
  blocked_count: number;
}

export interface ChannelInput {
  name: string;
  type: ChannelType;
  enabled: boolean;
  config: Record<string, unknown>;
  revision?: number;
}

const BASE = '/api/admin/alerts/channels';

export const listChannels = (signal?: AbortSignal) => request<Channel[]>(`${BASE}/`, { signal });
export const createChannel = (body: ChannelInput) =>
  request<void>(`${BASE}/`, { method: 'POST', body });
export const replaceChannel = (id: number, body: ChannelInput) =>
  request<void>(`${BASE}/${id}`, { method: 'PUT', body });
export const setChannelEnabled = (id: number, enabled: boolean) =>
  request<void>(`${BASE}/${id}/enabled`, { method: 'PUT', body: { enabled } });
export const testChannel = (id: number) =>
  request<void>(`${BASE}/${id}/test`, { method: 'POST', body: {} });
export const deleteChannel = (id: number) => request<void>(`${BASE}/${id}`, { method: 'DELETE' });

export const mtprotoCode = (channelId: number) =>
  request<{ login_id: string; timeout?: number }>(`${BASE}/telegram/mtproto/code`, {
    method: 'POST',
    body: { channel_id: channelId },
  });
export const mtprotoVerify = (loginId: string, code: string) =>
  request<{ password_required: true } | undefined>(`${BASE}/telegram/mtproto/verify`, {
    method: 'POST',
    body: { login_id: loginId, code },
  });
export const mtprotoPassword = (loginId: string, password: string) =>
  request<void>(`${BASE}/telegram/mtproto/password`, {
    method: 'POST',
    body: { login_id: loginId, password },
  });
export const mtprotoPing = (channelId: number) =>
  request<{ valid: boolean; reason?: string }>(`${BASE}/telegram/mtproto/ping`, {
    method: 'POST',
    body: { channel_id: channelId },
  });
