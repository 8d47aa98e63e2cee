import { Type } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { NODE_BODY_LIMIT, defineRoute } from '../../route-def.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'installIdentity'>;

const IdentityResponse = Type.Object({ install_id: Type.String(), created: Type.Boolean() });

/** POST /api/node/identity — this Dash installation's id, created on first use (reference §3). */
export function nodeIdentityRoute(deps: Deps) {
  return defineRoute({
    method: 'POST',
    path: '/api/node/identity',
    auth: 'node',
    errors: ['service_unavailable'],
    bodyLimit: NODE_BODY_LIMIT,
    schema: { response: { 200: IdentityResponse } },
    handler: async () => {
      const { installId, created } = await deps.installIdentity.get();
      return { install_id: installId, created };
    },
  });
}
