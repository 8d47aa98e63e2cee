import { defineRoute } from '../../../route-def.js';
import type { AppDeps } from '../../../../deps.js';
import { GroupBody } from '../../../../protocol/api/admin-nodes.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'groups'>;

/** POST /api/admin/groups/ — 400 invalid_name / invalid_remark, else 204. */
export function adminGroupsCreateRoute(deps: Deps) {
  return defineRoute({
    method: 'POST',
    path: '/api/admin/groups/',
    aliases: ['/api/admin/groups'],
    auth: 'admin',
    errors: ['invalid_name', 'invalid_remark'],
    schema: { body: GroupBody },
    handler: async (req, reply) => {
      await deps.groups.create({ name: req.body.name, remark: req.body.remark });
      return reply.code(204).send();
    },
  });
}
