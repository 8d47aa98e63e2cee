import { Type } from 'typebox';
import type { AppDeps } from '../../../../deps.js';
import { rfc3339 } from '../../../../platform/time-format.js';
import { defineRoute } from '../../../route-def.js';

const Nullable = <T extends ReturnType<typeof Type.Number>>(t: T) => Type.Union([t, Type.Null()]);
const NullableTime = Type.Union([Type.String(), Type.Null()]);

export const StorageResponse = Type.Object({
  database_bytes: Type.Number(),
  used_bytes: Type.Number(),
  raw_history: Type.Object({
    bytes: Type.Number(),
    points: Type.Number(),
    bytes_per_report: Nullable(Type.Number()),
    open_rows: Type.Number(),
    open_bytes: Type.Number(),
    oldest_at: NullableTime,
  }),
  growth_bytes_per_day: Nullable(Type.Number()),
  budget: Type.Object({
    max_bytes: Nullable(Type.Number()),
    state: Type.Union([
      Type.Literal('none'),
      Type.Literal('ok'),
      Type.Literal('shortened'),
      Type.Literal('over'),
    ]),
    raw_retention_days: Type.Number(),
    raw_kept_from: NullableTime,
    days_until_full: Nullable(Type.Number()),
  }),
});

/** GET /api/admin/system/storage — database size, growth per day, the history size budget. */
export function adminStorageRoute(deps: AppDeps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/system/storage',
    auth: 'admin',
    schema: { response: { 200: StorageResponse } },
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
