import { Type } from 'typebox';
import { defineRoute } from '../../../route-def.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'groups'>;

/** GET /api/admin/groups/map — `{"<id>": "<name>"}` for every live group. */
export function adminGroupsMapRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/groups/map',
    auth: 'admin',
    schema: { response: { 200: Type.Record(Type.String(), Type.String()) } },
    handler: async () =>
      Object.fromEntries((await deps.groups.list()).map((g) => [String(g.id), g.name])),
  });
}
