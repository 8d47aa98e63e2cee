import type { IssuedSession, SessionView } from '../../domain/auth/auth-service.js';
import { rfc3339 } from '../../platform/time-format.js';
import { Type } from 'typebox';

export const TokenResponse = Type.Object({
  access_token: Type.String(),
  expires_at: Type.String(),
  csrf_token: Type.String(),
});

export const SessionsResponse = Type.Object({
  sessions: Type.Array(
    Type.Object({
      id: Type.String(),
      expires_at: Type.String(),
      session_only: Type.Boolean(),
      current: Type.Boolean(),
    }),
  ),
});

export function presentToken(s: IssuedSession) {
  return {
    access_token: s.accessToken,
    expires_at: rfc3339(s.accessExpiresAt),
    csrf_token: s.csrfToken,
  };
}

export function presentSessions(list: SessionView[]) {
  return {
    sessions: list.map((s) => ({
      id: s.id,
      expires_at: rfc3339(s.expiresAt),
      session_only: s.sessionOnly,
      current: s.current,
    })),
  };
}
