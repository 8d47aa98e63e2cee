import { Type } from 'typebox';
import { defineRoute } from '../../route-def.js';
import type { AppDeps } from '../../../deps.js';
import '../../request-context.js';
import { FrontGroupSchema } from '../../../protocol/api/front.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'groups'>;

/** GET /api/front/groups — groups and their visible node ids, for the dashboard filter. */
export function frontGroupsRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/front/groups',
    auth: 'optional',
    schema: {
      response: { 200: Type.Array(FrontGroupSchema) },
    },
    handler: async (req) =>
      (await deps.groups.frontGroups(req.adminSessionId !== undefined)).map((g) => ({
        id: g.id,
        name: g.name,
        node_ids: g.nodeIds,
      })),
  });
}
