/** Wire shapes of the history, uptime, access and version reads. */
import { Type, type Static } from 'typebox';
import { GUEST_MODES } from './constants.js';
import { Nullable, OneOf } from './scalars.js';

import { HISTORY_AGGS } from '../history-metrics.js';

export type { HistoryAgg, HistoryRange } from '../history-metrics.js';

/** GET /api/metrics/history (reference §4.5). */
export const HistoryResponseSchema = Type.Object({
  server_id: Type.Integer(),
  metric: Type.String(),
  /** One of HISTORY_RANGES, as asked. */
  range: Type.String(),
  agg: OneOf(HISTORY_AGGS),
  step_sec: Type.Integer(),
  points: Type.Array(Type.Object({ ts: Type.String(), value: Nullable(Type.Number()) })),
});
export type HistoryResponse = Static<typeof HistoryResponseSchema>;

export const UptimeDaySchema = Type.Object({
  date: Type.String(),
  percent: Nullable(Type.Number()),
  observed_ms: Type.Integer(),
});
export type UptimeDay = Static<typeof UptimeDaySchema>;

/** GET /api/metrics/uptime (spec §2.5). */
export const UptimeResponseSchema = Type.Object({
  enabled: Type.Boolean(),
  timezone: Type.String(),
  generated_at: Type.String(),
  warning_sla: Type.Number(),
  error_sla: Type.Number(),
  nodes: Type.Array(Type.Object({ server_id: Type.String(), days: Type.Array(UptimeDaySchema) })),
});
export type UptimeResponse = Static<typeof UptimeResponseSchema>;

/** GET /api/metrics/uptime/day. */
export const UptimeDayResponseSchema = Type.Object({
  date: Type.String(),
  hours: Type.Array(Nullable(Type.Number())),
  observed_ms: Type.Array(Type.Integer()),
});
export type UptimeDayResponse = Static<typeof UptimeDayResponseSchema>;

export { GUEST_MODES, type GuestMode } from './constants.js';

/** GET /api/statistics/access: what guests may read. */
export const AccessSettingsSchema = Type.Object({
  history_guest_access_mode: OneOf(GUEST_MODES),
  /** One of GUEST_MODES (the traffic settings store it as text). */
  traffic_guest_access_mode: Type.String(),
});
export type AccessSettings = Static<typeof AccessSettingsSchema>;

/** GET /api/version/. */
export const VersionInfoSchema = Type.Object({
  version: Type.String(),
  node_version: Type.String(),
});
export type VersionInfo = Static<typeof VersionInfoSchema>;
