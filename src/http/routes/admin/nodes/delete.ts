import { defineRoute } from '../../../route-def.js';
import { IdParams, pathId } from '../../../schemas/common.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'nodes'>;

/** DELETE /api/admin/nodes/{id} (also with a trailing slash) — soft delete, secret freed. */
export function adminNodesDeleteRoute(deps: Deps) {
  return defineRoute({
    method: 'DELETE',
    path: '/api/admin/nodes/:id',
    aliases: ['/api/admin/nodes/:id/'],
    auth: 'admin',
    schema: { params: IdParams },
    handler: async (req, reply) => {
      await deps.nodes.delete(pathId(req.params.id));
      return reply.code(204).send();
    },
  });
}
