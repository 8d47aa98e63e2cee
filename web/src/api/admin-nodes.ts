import { request } from './http';

export type CycleMode = 'calendar_month' | 'whmcs_compatible' | 'clamp_to_month_end';
export type DirectionMode = 'default' | 'out' | 'both' | 'max';

/** Item of GET /api/admin/nodes/ (reference §5.2). */
export interface AdminNode {
  id: number;
  name: string;
  hostname: string;
  ip?: string;
  is_guest_visible: boolean;
  traffic_p95_enabled: boolean;
  traffic_cycle_mode: CycleMode;
  traffic_billing_start_day: number;
  traffic_billing_anchor_date: string;
  traffic_billing_timezone: string;
  traffic_direction_mode: DirectionMode;
  secret: string;
  tags: string[];
  display_order: number;
  group_ids: number[];
  version: { version: string; is_outdated: boolean; supports_auto_update: boolean };
}

/** PATCH body (spec §2.3); cycle fields must be sent as the set the mode needs. */
export interface NodePatch {
  name?: string;
  is_guest_visible?: boolean;
  traffic_p95_enabled?: boolean;
  traffic_cycle_mode?: CycleMode;
  traffic_billing_start_day?: number;
  traffic_billing_anchor_date?: string;
  traffic_billing_timezone?: string;
  traffic_direction_mode?: DirectionMode;
  display_order?: number;
  tags?: string[];
  secret?: string;
  group_ids?: number[];
}

export interface DeployScript {
  url: string;
  command_prefix: string;
}

export interface PublishedAgent {
  id: string;
  asset: string;
  os: 'linux' | 'macos' | 'windows';
  arch: string;
  libc?: string;
  published: boolean;
  problem?: string;
}

export interface DeployInfo {
  scripts: { linux: DeployScript; macos: DeployScript; windows: DeployScript };
  /** The address install commands use; a warning when nodes elsewhere cannot reach it. */
  address?: { url: string; source: 'config' | 'request'; warning?: string };
  agents?: PublishedAgent[];
  add_agents_command?: string;
}

export function listNodes(signal?: AbortSignal): Promise<AdminNode[]> {
  return request<AdminNode[]>('/api/admin/nodes/', { signal });
}

export function createNode(): Promise<void> {
  return request<void>('/api/admin/nodes/', { method: 'POST' });
}

export function patchNode(id: number, patch: NodePatch): Promise<void> {
  return request<void>(`/api/admin/nodes/${id}`, { method: 'PATCH', body: patch });
}

export function deleteNode(id: number): Promise<void> {
  return request<void>(`/api/admin/nodes/${id}`, { method: 'DELETE' });
}

export function upgradeNode(id: number): Promise<void> {
  return request<void>(`/api/admin/nodes/${id}/upgrade`, { method: 'POST' });
}

/** First id is shown first (it gets the highest display_order). */
export function saveDisplayOrder(ids: number[]): Promise<void> {
  return request<void>('/api/admin/nodes/display-order', { method: 'PUT', body: { ids } });
}

export function fetchDeployInfo(signal?: AbortSignal): Promise<DeployInfo> {
  return request<DeployInfo>('/api/admin/nodes/deploy', { signal });
}
