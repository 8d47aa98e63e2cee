import type { FastifyReply, FastifyRequest } from 'fastify';
import { parse, serialize, type SerializeOptions } from 'cookie';
import type { IssuedSession } from '../domain/auth/auth-service.js';

export const REFRESH_COOKIE = 'refresh';
export const CSRF_COOKIE = 'csrf';
const REFRESH_PATH = '/api/auth';

/** Secure when Dash is published over https or the request came over TLS (trusted proxies). */
function isSecure(req: FastifyRequest, publicUrl: string): boolean {
  return publicUrl.startsWith('https:') || req.protocol === 'https';
}

function setCookies(reply: FastifyReply, cookies: Array<[string, string, SerializeOptions]>): void {
  void reply.header(
    'set-cookie',
    cookies.map(([name, value, opts]) => serialize(name, value, opts)),
  );
}

/**
 * Refresh cookie: HttpOnly, SameSite=Strict, limited to /api/auth. CSRF cookie: readable by the
 * page. Browser-session cookies (no Max-Age/Expires) for `session` persistence; otherwise they
 * expire with the session.
 */
export function setSessionCookies(
  req: FastifyRequest,
  reply: FastifyReply,
  s: IssuedSession,
  publicUrl: string,
  now: number,
): void {
  const lifetime = s.sessionOnly
    ? {}
    : {
        maxAge: Math.max(0, Math.floor((s.sessionExpiresAt - now) / 1000)),
        expires: new Date(s.sessionExpiresAt),
      };
  const common = { sameSite: 'strict' as const, secure: isSecure(req, publicUrl), ...lifetime };
  setCookies(reply, [
    [REFRESH_COOKIE, s.refreshCookie, { ...common, httpOnly: true, path: REFRESH_PATH }],
    [CSRF_COOKIE, s.csrfToken, { ...common, path: '/' }],
  ]);
}

export function clearSessionCookies(
  req: FastifyRequest,
  reply: FastifyReply,
  publicUrl: string,
): void {
  const common = {
    sameSite: 'strict' as const,
    secure: isSecure(req, publicUrl),
    maxAge: 0,
    expires: new Date(0),
  };
  setCookies(reply, [
    [REFRESH_COOKIE, '', { ...common, httpOnly: true, path: REFRESH_PATH }],
    [CSRF_COOKIE, '', { ...common, path: '/' }],
  ]);
}

/** The refresh cookie, the CSRF cookie and the X-CSRF-Token header of a request. */
export function sessionProof(req: FastifyRequest) {
  const cookies = typeof req.headers.cookie === 'string' ? parse(req.headers.cookie) : {};
  const header = req.headers['x-csrf-token'];
  return {
    refresh: cookies[REFRESH_COOKIE],
    csrfCookie: cookies[CSRF_COOKIE],
    csrfHeader: typeof header === 'string' ? header : undefined,
  };
}
