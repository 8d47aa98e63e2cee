import { Type } from 'typebox';
import { defineRoute } from '../../route-def.js';
import type { AppDeps } from '../../../deps.js';
import { AppError } from '../../../errors/app-error.js';
import { clearSessionCookies } from '../../auth-cookies.js';
import { presentSessions } from '../../presenters/auth.js';
import { SessionsSchema } from '../../../protocol/api/auth.js';
import '../../request-context.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'auth' | 'config'>;

/** GET /api/auth/sessions/ — the admin's live sessions, the caller's marked current. */
export function listSessionsRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/auth/sessions/',
    auth: 'admin',
    schema: { response: { 200: SessionsSchema } },
    handler: (req) => presentSessions(deps.auth.list(req.adminSessionId)),
  });
}

/** DELETE /api/auth/sessions/current — ends the caller's own session. */
export function deleteCurrentSessionRoute(deps: Deps) {
  return defineRoute({
    method: 'DELETE',
    path: '/api/auth/sessions/current',
    auth: 'admin',
    handler: async (req, reply) => {
      if (req.adminSessionId) await deps.auth.revoke(req.adminSessionId);
      clearSessionCookies(req, reply, deps.config.publicUrl);
      return reply.code(204).send();
    },
  });
}

/** DELETE /api/auth/sessions/ — ends every session of the admin, the caller's included. */
export function deleteAllSessionsRoute(deps: Deps) {
  return defineRoute({
    method: 'DELETE',
    path: '/api/auth/sessions/',
    auth: 'admin',
    handler: async (req, reply) => {
      await deps.auth.revokeAll();
      clearSessionCookies(req, reply, deps.config.publicUrl);
      return reply.code(204).send();
    },
  });
}

/** DELETE /api/auth/sessions/{sid} — ends one session (unknown ids are fine: nothing to end). */
export function deleteSessionRoute(deps: Deps) {
  return defineRoute({
    method: 'DELETE',
    path: '/api/auth/sessions/:sid',
    auth: 'admin',
    errors: ['invalid_session'],
    schema: { params: Type.Object({ sid: Type.String() }) },
    handler: async (req, reply) => {
      const sid = req.params.sid.trim();
      if (sid === '') throw new AppError('invalid_session');
      await deps.auth.revoke(sid);
      if (sid === req.adminSessionId) clearSessionCookies(req, reply, deps.config.publicUrl);
      return reply.code(204).send();
    },
  });
}
