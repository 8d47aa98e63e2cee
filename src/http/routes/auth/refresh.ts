import { defineRoute } from '../../route-def.js';
import type { AppDeps } from '../../../deps.js';
import { sessionProof, setSessionCookies } from '../../auth-cookies.js';
import { presentToken } from '../../presenters/auth.js';
import { TokenGrantSchema } from '../../../protocol/api/auth.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'auth' | 'clock' | 'config'>;

/** POST /api/auth/refresh — rotates the refresh token and returns a new access token. */
export function refreshRoute(deps: Deps) {
  return defineRoute({
    method: 'POST',
    path: '/api/auth/refresh',
    auth: 'refresh',
    schema: { response: { 200: TokenGrantSchema } },
    handler: async (req, reply) => {
      const proof = sessionProof(req);
      const issued = await deps.auth.refresh(proof.refresh, proof.csrfCookie, proof.csrfHeader);
      setSessionCookies(req, reply, issued, deps.config.publicUrl, deps.clock.now());
      return presentToken(issued);
    },
  });
}
