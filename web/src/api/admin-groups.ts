import type { AdminGroup, GroupInput } from '../../../src/protocol/api/admin-nodes';
import { request } from './http';

// Wire types are the server's own (src/protocol/api/), so the two cannot drift apart.
export type { AdminGroup };

export function listGroups(signal?: AbortSignal): Promise<AdminGroup[]> {
  return request<AdminGroup[]>('/api/admin/groups/', { signal });
}

export function createGroup(name: string, remark: string): Promise<void> {
  return request<void>('/api/admin/groups/', { method: 'POST', body: { name, remark } });
}

export function updateGroup(id: number, patch: GroupInput): Promise<void> {
  return request<void>(`/api/admin/groups/${id}`, { method: 'PATCH', body: patch });
}

export function deleteGroup(id: number): Promise<void> {
  return request<void>(`/api/admin/groups/${id}`, { method: 'DELETE' });
}

/** The group id 1 ("default") always exists and cannot be deleted. */
export const DEFAULT_GROUP_ID = 1;
