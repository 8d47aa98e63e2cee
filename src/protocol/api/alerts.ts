/** Wire shapes of the alert endpoints (spec §2.9, reference §8). */
import { Type, type Static } from 'typebox';
import { SILENCE_SCOPES } from './constants.js';
import { Nullable, OneOf } from './scalars.js';

/** Item of GET /api/admin/alerts/rules/ (user rules only). */
export const AlertRuleSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  enabled: Type.Boolean(),
  metric: Type.String(),
  operator: Type.String(),
  threshold: Type.Number(),
  duration_sec: Type.Integer(),
  cooldown_min: Type.Integer(),
  /** `static` or `core_plus` (checked on write, stored as text). */
  threshold_mode: Type.String(),
  threshold_offset: Type.Number(),
  /** Hysteresis: an open alert closes only past this value; null = the threshold. */
  clear_threshold: Nullable(Type.Number()),
  repeat_interval_min: Type.Integer(),
  repeat_max: Nullable(Type.Integer()),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type AlertRule = Static<typeof AlertRuleSchema>;

/** "Why it fired": the window (RFC 3339) and the values that crossed the threshold. */
export const AlertWhySchema = Type.Object({
  from: Type.String(),
  to: Type.String(),
  duration_sec: Type.Integer(),
  operator: Type.String(),
  threshold: Type.Number(),
  clear_threshold: Type.Optional(Type.Number()),
  values: Type.Array(Type.Number()),
  samples: Type.Integer(),
  min: Type.Number(),
  max: Type.Number(),
});
export type AlertWhy = Static<typeof AlertWhySchema>;

/** An alert record; absent optional values are omitted, never null. */
export const AlertEventSchema = Type.Object({
  id: Type.Integer(),
  rule_id: Type.Integer(),
  rule_generation: Type.Integer(),
  server_id: Type.Integer(),
  server_name: Type.String(),
  server_hostname: Type.String(),
  server_ip: Type.Optional(Type.String()),
  status: OneOf(['open', 'closed']),
  metric: Type.String(),
  rule_name: Type.String(),
  first_trigger_at: Type.String(),
  last_trigger_at: Type.String(),
  closed_at: Type.Optional(Type.String()),
  current_value: Type.Optional(Type.Number()),
  effective_threshold: Type.Optional(Type.Number()),
  close_reason: Type.Optional(Type.String()),
  title: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
  why: Type.Optional(AlertWhySchema),
  acked_at: Type.Optional(Type.String()),
  silenced: Type.Boolean(),
  flapping: Type.Boolean(),
  repeat_count: Type.Integer(),
});
export type AlertEvent = Static<typeof AlertEventSchema>;

/** GET /api/admin/alerts/events/: keyset-paged, latest trigger first. */
export const AlertEventPageSchema = Type.Object({
  items: Type.Array(AlertEventSchema),
  next_cursor: Nullable(Type.String()),
  has_more: Type.Boolean(),
});
export type AlertEventPage = Static<typeof AlertEventPageSchema>;

/** Its query: every value a string on the wire, checked by the route. */
export const AlertEventQuerySchema = Type.Object({
  server_id: Type.Optional(Type.String()),
  status: Type.Optional(Type.String()),
  metric: Type.Optional(Type.String()),
  from: Type.Optional(Type.String()),
  to: Type.Optional(Type.String()),
  cursor: Type.Optional(Type.String()),
  limit: Type.Optional(Type.String()),
});
export type AlertEventQuery = Static<typeof AlertEventQuerySchema>;

export { SILENCE_SCOPES, type SilenceScope } from './constants.js';

export const AlertSilenceSchema = Type.Object({
  id: Type.Integer(),
  scope: OneOf(SILENCE_SCOPES),
  target_id: Type.Integer(),
  target_name: Type.Optional(Type.String()),
  ends_at: Type.String(),
  note: Type.String(),
  active: Type.Boolean(),
  created_at: Type.String(),
});
export type AlertSilence = Static<typeof AlertSilenceSchema>;

/** POST /api/admin/alerts/silences/ body as the web sends it (checked field by field). */
export const SilenceInputSchema = Type.Object({
  scope: OneOf(SILENCE_SCOPES),
  target_id: Type.Integer(),
  ends_at: Type.String(),
  note: Type.Optional(Type.String()),
});
export type SilenceInput = Static<typeof SilenceInputSchema>;

export const AlertSilencesSchema = Type.Object({ items: Type.Array(AlertSilenceSchema) });
export const CreatedIdSchema = Type.Object({ id: Type.Integer() });

/** GET /api/admin/alerts/mounts/: built-ins first, then user rules; one entry per node and rule. */
export const AlertMountsSchema = Type.Object({
  rules: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      metric: Type.String(),
      builtin: Type.Boolean(),
      enabled: Type.Boolean(),
      default_mounted: Type.Boolean(),
    }),
  ),
  nodes: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      hostname: Type.String(),
      ip: Type.Optional(Type.String()),
      group_ids: Type.Array(Type.Integer()),
      mounts: Type.Array(Type.Object({ rule_id: Type.Integer(), mounted: Type.Boolean() })),
    }),
  ),
});
export type AlertMounts = Static<typeof AlertMountsSchema>;

export const AlertSettingsSchema = Type.Object({
  enabled: Type.Boolean(),
  channel_ids: Type.Array(Type.Integer()),
  repeat_max: Type.Integer(),
  flap_threshold: Type.Integer(),
  flap_window_min: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type AlertSettings = Static<typeof AlertSettingsSchema>;

/** GET /api/admin/alerts/events/summary: open alerts per node (the dashboard badge). */
export const AlertSummarySchema = Type.Object({
  items: Type.Array(
    Type.Object({
      server_id: Type.Integer(),
      open_count: Type.Integer(),
      last_trigger_at: Type.String(),
      metric: Type.String(),
      rule_name: Type.String(),
      metrics: Type.Array(Type.String()),
    }),
  ),
});
export type AlertSummaryItem = Static<typeof AlertSummarySchema>['items'][number];

export const AlertServersSchema = Type.Object({
  items: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
});
export type AlertServers = Static<typeof AlertServersSchema>;

export type AlertSilences = Static<typeof AlertSilencesSchema>;
export type CreatedId = Static<typeof CreatedIdSchema>;
export type AlertSummary = Static<typeof AlertSummarySchema>;
