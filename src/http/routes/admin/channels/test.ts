import { defineRoute } from '../../../route-def.js';
import { IdParams, pathId } from '../../../schemas/common.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'channels'>;

/** POST /api/admin/alerts/channels/{id}/test — `{title?, message?}`; sends now. */
export function adminChannelsTestRoute(deps: Deps) {
  return defineRoute({
    method: 'POST',
    path: '/api/admin/alerts/channels/:id/test',
    auth: 'admin',
    bodyLimit: 64 * 1024,
    validationErrorCode: 'invalid_fields',
    schema: { params: IdParams },
    handler: async (req, reply) => {
      await deps.channels.test(pathId(req.params.id), req.body);
      return reply.code(204).send();
    },
  });
}
