/** GET /api/admin/system/storage (docs/operations.md, "History size budget"). */
import { Type, type Static } from 'typebox';
import { Nullable, OneOf } from './scalars.js';

const Time = Nullable(Type.String());

export const StorageStatusSchema = Type.Object({
  database_bytes: Type.Number(),
  used_bytes: Type.Number(),
  raw_history: Type.Object({
    bytes: Type.Number(),
    points: Type.Number(),
    bytes_per_report: Nullable(Type.Number()),
    /** Reports not yet sealed into blocks, and the bytes they take; not in bytes/points. */
    open_rows: Type.Number(),
    open_bytes: Type.Number(),
    oldest_at: Time,
  }),
  growth_bytes_per_day: Nullable(Type.Number()),
  budget: Type.Object({
    max_bytes: Nullable(Type.Number()),
    state: OneOf(['none', 'ok', 'shortened', 'over']),
    raw_retention_days: Type.Number(),
    raw_kept_from: Time,
    days_until_full: Nullable(Type.Number()),
  }),
});
export type StorageStatus = Static<typeof StorageStatusSchema>;
