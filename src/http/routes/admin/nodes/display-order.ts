import { Type } from 'typebox';
import { defineRoute } from '../../../route-def.js';
import { Int64 } from '../../../schemas/common.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'nodes'>;

const Ids = Type.Array(Int64);
/** `{"ids": [...]}`; a bare array is read the same way. */
const Body = Type.Union([Type.Object({ ids: Type.Optional(Ids) }), Ids]);

/** PUT /api/admin/nodes/display-order — first id shown first; every live node exactly once. */
export function adminNodesDisplayOrderRoute(deps: Deps) {
  return defineRoute({
    method: 'PUT',
    path: '/api/admin/nodes/display-order',
    auth: 'admin',
    errors: ['invalid_ids', 'not_found'],
    schema: { body: Body },
    handler: async (req, reply) => {
      const ids = Array.isArray(req.body) ? req.body : req.body.ids;
      await deps.nodes.setDisplayOrder(ids);
      return reply.code(204).send();
    },
  });
}
