import { request } from './http';

/** Item of GET /api/admin/groups/ (reference §5.1). */
export interface AdminGroup {
  id: number;
  name: string;
  remark: string;
  server_count: number;
}

export function listGroups(signal?: AbortSignal): Promise<AdminGroup[]> {
  return request<AdminGroup[]>('/api/admin/groups/', { signal });
}

export function createGroup(name: string, remark: string): Promise<void> {
  return request<void>('/api/admin/groups/', { method: 'POST', body: { name, remark } });
}

export function updateGroup(id: number, patch: { name?: string; remark?: string }): Promise<void> {
  return request<void>(`/api/admin/groups/${id}`, { method: 'PATCH', body: patch });
}

export function deleteGroup(id: number): Promise<void> {
  return request<void>(`/api/admin/groups/${id}`, { method: 'DELETE' });
}

/** The group id 1 ("default") always exists and cannot be deleted. */
export const DEFAULT_GROUP_ID = 1;
