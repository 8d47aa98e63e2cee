import { defineRoute } from '../../../route-def.js';
import { IdParams, pathId } from '../../../schemas/common.js';
import type { AppDeps } from '../../../../deps.js';
import { RebuildStateSchema } from '../../../../protocol/traffic.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'traffic'>;

/** GET /api/admin/nodes/traffic/rebuild — the rebuild task state (spec §2.8). */
export function adminTrafficRebuildStateRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/nodes/traffic/rebuild',
    auth: 'admin',
    schema: { response: { 200: RebuildStateSchema } },
    handler: async () => deps.traffic.rebuild.current(),
  });
}

/** POST /api/admin/nodes/{id}/traffic/rebuild — rewrite the node's 5-minute facts (202). */
export function adminTrafficRebuildRoute(deps: Deps) {
  return defineRoute({
    method: 'POST',
    path: '/api/admin/nodes/:id/traffic/rebuild',
    auth: 'admin',
    errors: [
      'traffic_rebuild_requires_billing',
      'traffic_rebuild_running',
      'traffic_rebuild_unavailable',
    ],
    schema: { params: IdParams, response: { 202: RebuildStateSchema } },
    handler: async (req, reply) => {
      const state = await deps.traffic.rebuild.start(pathId(req.params.id));
      return reply.code(202).send(state);
    },
  });
}
