import { Type } from 'typebox';
import { defineRoute } from '../../../route-def.js';
import { presentAdminNode } from '../../../presenters/nodes.js';
import { AdminNodeSchema } from '../../../../protocol/api/admin-nodes.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'nodes'>;

/** GET /api/admin/nodes/ — every live node, highest display_order first. */
export function adminNodesListRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/nodes/',
    aliases: ['/api/admin/nodes'],
    auth: 'admin',
    schema: { response: { 200: Type.Array(AdminNodeSchema) } },
    handler: async () => (await deps.nodes.list()).map(presentAdminNode),
  });
}
