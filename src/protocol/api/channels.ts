/** Wire shapes of the notification channel endpoints. */
import { Type, type Static } from 'typebox';
import { CHANNEL_TYPES } from './constants.js';
import { Nullable, OneOf } from './scalars.js';

export { CHANNEL_TYPES, type ChannelType } from './constants.js';

const Time = Nullable(Type.String());

/** Item of GET /api/admin/alerts/channels/: config sanitized (no secrets), delivery health. */
export const ChannelSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** One of CHANNEL_TYPES (checked on write, stored as text). */
  type: Type.String(),
  /** Null when the stored config cannot be decoded. */
  config: Nullable(Type.Record(Type.String(), Type.Unknown())),
  enabled: Type.Boolean(),
  revision: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
  delivery_status: OneOf(['unknown', 'healthy', 'degraded', 'disabled']),
  last_success_at: Time,
  last_failure_at: Time,
  consecutive_failures: Type.Integer(),
  last_error_code: Nullable(Type.String()),
  last_error: Nullable(Type.String()),
  next_retry_at: Time,
  next_probe_at: Time,
  pending_count: Type.Integer(),
  blocked_count: Type.Integer(),
});
export type Channel = Static<typeof ChannelSchema>;

/** Create and replace body as the web sends it; the server checks fields one by one. */
export const ChannelInputSchema = Type.Object({
  name: Type.String(),
  type: OneOf(CHANNEL_TYPES),
  enabled: Type.Boolean(),
  config: Type.Record(Type.String(), Type.Unknown()),
  revision: Type.Optional(Type.Integer()),
});
export type ChannelInput = Static<typeof ChannelInputSchema>;

/** POST …/telegram/mtproto/code: Telegram sent a login code. */
export const MtprotoCodeSchema = Type.Object({
  login_id: Type.String(),
  timeout: Type.Optional(Type.Integer()),
});
export type MtprotoCode = Static<typeof MtprotoCodeSchema>;

/** POST …/telegram/mtproto/verify: 200 with this when the account has a password, else 204. */
export const MtprotoPasswordRequiredSchema = Type.Object({
  password_required: Type.Literal(true),
});
export type MtprotoPasswordRequired = Static<typeof MtprotoPasswordRequiredSchema>;

/** POST …/telegram/mtproto/ping: whether the saved session still works. */
export const MtprotoPingSchema = Type.Object({
  valid: Type.Boolean(),
  reason: Type.Optional(Type.String()),
});
export type MtprotoPing = Static<typeof MtprotoPingSchema>;
