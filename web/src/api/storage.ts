import { request } from './http';

/** GET /api/admin/system/storage (docs/operations.md, "History size budget"). */
export interface StorageStatus {
  database_bytes: number;
  used_bytes: number;
  raw_history: {
    bytes: number;
    points: number;
    bytes_per_report: number | null;
    /** Reports not yet sealed into blocks, and the bytes they take; not in bytes/points. */
    open_rows: number;
    open_bytes: number;
    oldest_at: string | null;
  };
  growth_bytes_per_day: number | null;
  budget: {
    max_bytes: number | null;
    state: 'none' | 'ok' | 'shortened' | 'over';
    raw_retention_days: number;
    raw_kept_from: string | null;
    days_until_full: number | null;
  };
}

export function fetchStorage(signal?: AbortSignal): Promise<StorageStatus> {
  return request<StorageStatus>('/api/admin/system/storage', { signal });
}
