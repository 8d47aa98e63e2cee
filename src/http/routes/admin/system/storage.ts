import type { AppDeps } from '../../../../deps.js';
import { rfc3339 } from '../../../../platform/time-format.js';
import { defineRoute } from '../../../route-def.js';
import { StorageStatusSchema } from '../../../../protocol/api/storage.js';

/** GET /api/admin/system/storage — database size, growth per day, the history size budget. */
export function adminStorageRoute(deps: AppDeps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/system/storage',
    auth: 'admin',
    schema: { response: { 200: StorageStatusSchema } },
    handler: async () => {
      const v = await deps.storage.view();
      const time = (ms: number | undefined) => (ms === undefined ? null : rfc3339(ms));
      return {
        database_bytes: v.databaseBytes,
        used_bytes: v.usedBytes,
        raw_history: {
          bytes: v.raw.bytes,
          points: v.raw.points,
          bytes_per_report: v.raw.bytesPerReport ?? null,
          open_rows: v.raw.openRows,
          open_bytes: v.raw.openBytes,
          oldest_at: time(v.raw.oldestAt),
        },
        growth_bytes_per_day: v.growthBytesPerDay ?? null,
        budget: {
          max_bytes: v.budget.maxBytes ?? null,
          state: v.budget.state,
          raw_retention_days: v.budget.rawRetentionDays,
          raw_kept_from: time(v.budget.rawKeptFrom),
          days_until_full: v.budget.daysUntilFull ?? null,
        },
      };
    },
  });
}
