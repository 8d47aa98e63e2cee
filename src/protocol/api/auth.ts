/** Wire shapes of the auth endpoints (spec §2.6, reference §7.2). */
import { Type, type Static } from 'typebox';

/** Login and refresh answer. */
export const TokenGrantSchema = Type.Object({
  access_token: Type.String(),
  /** RFC 3339 expiry of the access token. */
  expires_at: Type.String(),
  csrf_token: Type.String(),
});
export type TokenGrant = Static<typeof TokenGrantSchema>;

export { PERSISTENCE, type Persistence } from './constants.js';

/** POST /api/auth/login body; persistence is checked by the service (invalid_persistence). */
export const LoginBody = Type.Object({
  password: Type.Optional(Type.String()),
  persistence: Type.Optional(Type.String()),
});

export const SessionItemSchema = Type.Object({
  id: Type.String(),
  expires_at: Type.String(),
  session_only: Type.Boolean(),
  current: Type.Boolean(),
});
export type SessionItem = Static<typeof SessionItemSchema>;

export const SessionsSchema = Type.Object({ sessions: Type.Array(SessionItemSchema) });
export type Sessions = Static<typeof SessionsSchema>;
