import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { AppError } from '../../errors/app-error.js';
import type { AuthService } from '../../domain/auth/auth-service.js';
import '../request-context.js';

/** Only the exact `Bearer <token>` form is recognised, as in the reference. */
export function bearerTokenOf(header: string | undefined): string | undefined {
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return undefined;
  const token = header.slice(7);
  return token.length > 0 ? token : undefined;
}

function bearerToken(req: FastifyRequest): string | undefined {
  return bearerTokenOf(req.headers.authorization);
}

export function adminGuard(auth: AuthService): onRequestAsyncHookHandler {
  return async (req) => {
    const token = bearerToken(req);
    const sid = token === undefined ? undefined : await auth.authenticateShared(token);
    if (sid === undefined) {
      throw new AppError(
        'unauthorized',
        token === undefined ? 'missing or invalid bearer token' : 'token invalid or expired',
      );
    }
    req.adminSessionId = sid;
  };
}

/** Optional-auth reads: a valid token makes the caller an admin; anything else is anonymous. */
export function optionalAdminGuard(auth: AuthService): onRequestAsyncHookHandler {
  return async (req) => {
    const token = bearerToken(req);
    const sid = token === undefined ? undefined : await auth.authenticateShared(token);
    if (sid !== undefined) req.adminSessionId = sid;
  };
}
