import type { StorageStatus } from '../../../src/protocol/api/storage';
import { request } from './http';

// Wire types are the server's own (src/protocol/api/), so the two cannot drift apart.
export type { StorageStatus };

export function fetchStorage(signal?: AbortSignal): Promise<StorageStatus> {
  return request<StorageStatus>('/api/admin/system/storage', { signal });
}
