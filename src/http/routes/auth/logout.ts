import { defineRoute } from '../../route-def.js';
import type { AppDeps } from '../../../deps.js';
import { clearSessionCookies, sessionProof } from '../../auth-cookies.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'auth' | 'config'>;

/** POST /api/auth/logout — revokes the session proven by the cookies and clears them. */
export function logoutRoute(deps: Deps) {
  return defineRoute({
    method: 'POST',
    path: '/api/auth/logout',
    auth: 'refresh',
    handler: async (req, reply) => {
      const proof = sessionProof(req);
      await deps.auth.logout(proof.refresh, proof.csrfCookie, proof.csrfHeader);
      clearSessionCookies(req, reply, deps.config.publicUrl);
      return reply.code(204).send();
    },
  });
}
