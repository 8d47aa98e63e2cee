import { defineRoute } from '../../../route-def.js';
import { IdParams, pathId } from '../../../schemas/common.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'nodeUpgrades'>;

/** POST /api/admin/nodes/{id}/upgrade — queue the bundled agent for the node's next report. */
export function adminNodesUpgradeRoute(deps: Deps) {
  return defineRoute({
    method: 'POST',
    path: '/api/admin/nodes/:id/upgrade',
    auth: 'admin',
    errors: [
      'node_upgrade_unsupported',
      'node_version_unavailable',
      'invalid_node_version',
      'node_platform_unknown',
      'node_platform_unsupported',
      'node_asset_missing',
      'node_asset_error',
      'node_upgrade_grant_error',
    ],
    schema: { params: IdParams },
    handler: async (req, reply) => {
      await deps.nodeUpgrades.request(pathId(req.params.id));
      return reply.code(204).send();
    },
  });
}
