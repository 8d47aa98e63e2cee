import { defineRoute } from '../../../route-def.js';
import { IdParams, pathId } from '../../../schemas/common.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'channels'>;

/** DELETE /api/admin/alerts/channels/{id} — discards unsent items, drops it from settings. */
export function adminChannelsDeleteRoute(deps: Deps) {
  return defineRoute({
    method: 'DELETE',
    path: '/api/admin/alerts/channels/:id',
    auth: 'admin',
    schema: { params: IdParams },
    handler: async (req, reply) => {
      await deps.channels.delete(pathId(req.params.id));
      return reply.code(204).send();
    },
  });
}
