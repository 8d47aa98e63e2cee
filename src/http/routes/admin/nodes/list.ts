import { Type } from 'typebox';
import { defineRoute } from '../../../route-def.js';
import { AdminNodeSchema, presentAdminNode } from '../../../presenters/nodes.js';
import type { AppDeps } from '../../../../deps.js';

/** GET /api/admin/nodes/ — every live node, highest display_order first. */
export function adminNodesListRoute(deps: AppDeps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/nodes/',
    aliases: ['/api/admin/nodes'],
    auth: 'admin',
    schema: { response: { 200: Type.Array(AdminNodeSchema) } },
    handler: async () => (await deps.nodes.list()).map(presentAdminNode),
  });
}
