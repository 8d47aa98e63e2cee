import type { IssuedSession, SessionView } from '../../domain/auth/auth-service.js';
import { rfc3339 } from '../../platform/time-format.js';
import type { Sessions, TokenGrant } from '../../protocol/api/auth.js';

export function presentToken(s: IssuedSession): TokenGrant {
  return {
    access_token: s.accessToken,
    expires_at: rfc3339(s.accessExpiresAt),
    csrf_token: s.csrfToken,
  };
}

export function presentSessions(list: SessionView[]): Sessions {
  return {
    sessions: list.map((s) => ({
      id: s.id,
      expires_at: rfc3339(s.expiresAt),
      session_only: s.sessionOnly,
      current: s.current,
    })),
  };
}
