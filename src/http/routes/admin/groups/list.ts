import { Type } from 'typebox';
import { defineRoute } from '../../../route-def.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'groups'>;

const GroupItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  remark: Type.String(),
  server_count: Type.Integer(),
});

/** GET /api/admin/groups/ — live groups by id with their live node counts. */
export function adminGroupsListRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/groups/',
    aliases: ['/api/admin/groups'],
    auth: 'admin',
    schema: { response: { 200: Type.Array(GroupItem) } },
    handler: async () =>
      (await deps.groups.list()).map((g) => ({
        id: g.id,
        name: g.name,
        remark: g.remark,
        server_count: g.nodeCount,
      })),
  });
}
