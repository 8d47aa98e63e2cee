import type {
  Persistence,
  Sessions,
  SessionItem,
  TokenGrant,
} from '../../../src/protocol/api/auth';
import { readCookie, request } from './http';

// Wire types are the server's own (src/protocol/api/), so the two cannot drift apart.
export type { Persistence, SessionItem, TokenGrant };

function csrfHeaders(csrf?: string | null): Record<string, string> {
  const token = csrf ?? readCookie('csrf');
  return token ? { 'X-CSRF-Token': token } : {};
}

export function login(password: string, persistence: Persistence): Promise<TokenGrant> {
  return request<TokenGrant>('/api/auth/login', {
    method: 'POST',
    body: { password, persistence },
    auth: false,
  });
}

/** Uses the HttpOnly refresh cookie plus the readable CSRF cookie. */
export function refresh(csrf?: string | null): Promise<TokenGrant> {
  return request<TokenGrant>('/api/auth/refresh', {
    method: 'POST',
    auth: false,
    headers: csrfHeaders(csrf),
  });
}

export function logout(csrf?: string | null): Promise<void> {
  return request<void>('/api/auth/logout', {
    method: 'POST',
    auth: false,
    headers: csrfHeaders(csrf),
  });
}

export async function listSessions(signal?: AbortSignal): Promise<SessionItem[]> {
  const body = await request<Sessions>('/api/auth/sessions/', { signal });
  return body.sessions;
}

export function revokeSession(id: string): Promise<void> {
  return request<void>(`/api/auth/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function revokeAllSessions(): Promise<void> {
  return request<void>('/api/auth/sessions/', { method: 'DELETE' });
}
