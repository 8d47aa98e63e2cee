import { Type } from 'typebox';
import { defineRoute } from '../../../route-def.js';
import type { AppDeps } from '../../../../deps.js';
import { AdminGroupSchema } from '../../../../protocol/api/admin-nodes.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'groups'>;

/** GET /api/admin/groups/ — live groups by id with their live node counts. */
export function adminGroupsListRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/groups/',
    aliases: ['/api/admin/groups'],
    auth: 'admin',
    schema: { response: { 200: Type.Array(AdminGroupSchema) } },
    handler: async () =>
      (await deps.groups.list()).map((g) => ({
        id: g.id,
        name: g.name,
        remark: g.remark,
        server_count: g.nodeCount,
      })),
  });
}
