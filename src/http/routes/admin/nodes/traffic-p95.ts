import { Type } from 'typebox';
import { defineRoute } from '../../../route-def.js';
import { Int64 } from '../../../schemas/common.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'nodes'>;

const Body = Type.Object({
  ids: Type.Optional(Type.Array(Int64)),
  enabled: Type.Optional(Type.Boolean()),
});

/** PATCH /api/admin/nodes/traffic-p95 — all ids validated, then updated in one transaction. */
export function adminNodesTrafficP95Route(deps: Deps) {
  return defineRoute({
    method: 'PATCH',
    path: '/api/admin/nodes/traffic-p95',
    auth: 'admin',
    errors: ['invalid_fields', 'invalid_ids', 'not_found'],
    schema: { body: Body },
    handler: async (req, reply) => {
      await deps.nodes.setTrafficP95(req.body.ids, req.body.enabled);
      return reply.code(204).send();
    },
  });
}
