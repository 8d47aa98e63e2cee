import type { AdminNode, DeployInfo, NodePatch } from '../../../src/protocol/api/admin-nodes';
import { request } from './http';

// Plain constants (no schema code enters the bundle).
export { CYCLE_MODES, DIRECTION_MODES, oneOf } from '../../../src/protocol/api/constants';

// Wire types are the server's own (src/protocol/api/), so the two cannot drift apart.
export type {
  AdminNode,
  CycleMode,
  DeployInfo,
  DeployScript,
  DirectionMode,
  NodePatch,
  PublishedAgent,
} from '../../../src/protocol/api/admin-nodes';

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
