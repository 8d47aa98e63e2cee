import { defineRoute, NODE_BODY_LIMIT } from '../../route-def.js';
import type { AppDeps } from '../../../deps.js';
import { AppError } from '../../../errors/app-error.js';
import { parsePersistence } from '../../../domain/auth/auth-service.js';
import { clientAddressKey } from '../../../domain/auth/client-network.js';
import { setSessionCookies } from '../../auth-cookies.js';
import { presentToken } from '../../presenters/auth.js';
import { LoginBody, TokenGrantSchema } from '../../../protocol/api/auth.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'auth' | 'clock' | 'config' | 'loginLimiter'>;

/** POST /api/auth/login — admin password in, access token and session cookies out. */
export function loginRoute(deps: Deps) {
  return defineRoute({
    method: 'POST',
    path: '/api/auth/login',
    auth: 'public',
    errors: ['invalid_json', 'invalid_persistence', 'unauthorized', 'rate_limited'],
    bodyLimit: NODE_BODY_LIMIT,
    jsonErrorCode: 'invalid_json',
    validationErrorCode: 'invalid_json',
    schema: {
      body: LoginBody,
      response: { 200: TokenGrantSchema },
    },
    handler: async (req, reply) => {
      // Per client address, failures only: a neighbour guessing cannot lock the admin out.
      const client = clientAddressKey(req.ip);
      if (deps.loginLimiter.isLimited(client)) {
        const seconds = Math.ceil(deps.loginLimiter.retryAfterMs(client) / 1000);
        throw new AppError('rate_limited', undefined, {
          headers: { 'retry-after': String(Math.max(1, seconds)) },
        });
      }
      const persistence = parsePersistence(req.body.persistence);
      let issued;
      try {
        issued = await deps.auth.login(req.body.password ?? '', persistence);
      } catch (err) {
        if (err instanceof AppError && err.code === 'unauthorized') deps.loginLimiter.hit(client);
        throw err;
      }
      setSessionCookies(req, reply, issued, deps.config.publicUrl, deps.clock.now());
      return presentToken(issued);
    },
  });
}
