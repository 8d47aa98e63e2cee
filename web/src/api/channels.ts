import type {
  Channel,
  ChannelInput,
  ChannelType,
  MtprotoCode,
  MtprotoPasswordRequired,
  MtprotoPing,
} from '../../../src/protocol/api/channels';
import { request } from './http';

// Plain constants (no schema code enters the bundle).
export { CHANNEL_TYPES, oneOf } from '../../../src/protocol/api/constants';

// Wire types are the server's own (src/protocol/api/), so the two cannot drift apart.
export type { Channel, ChannelInput, ChannelType };

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
  request<MtprotoCode>(`${BASE}/telegram/mtproto/code`, {
    method: 'POST',
    body: { channel_id: channelId },
  });
export const mtprotoVerify = (loginId: string, code: string) =>
  request<MtprotoPasswordRequired | undefined>(`${BASE}/telegram/mtproto/verify`, {
    method: 'POST',
    body: { login_id: loginId, code },
  });
export const mtprotoPassword = (loginId: string, password: string) =>
  request<void>(`${BASE}/telegram/mtproto/password`, {
    method: 'POST',
    body: { login_id: loginId, password },
  });
export const mtprotoPing = (channelId: number) =>
  request<MtprotoPing>(`${BASE}/telegram/mtproto/ping`, {
    method: 'POST',
    body: { channel_id: channelId },
  });
