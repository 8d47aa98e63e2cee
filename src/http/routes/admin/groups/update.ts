import { defineRoute } from '../../../route-def.js';
import { IdParams, pathId } from '../../../schemas/common.js';
import type { AppDeps } from '../../../../deps.js';
import { GroupBody } from '../../../../protocol/api/admin-nodes.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'groups'>;

/** PATCH /api/admin/groups/{id} — partial rename; 400 invalid_fields / no_fields, 404. */
export function adminGroupsUpdateRoute(deps: Deps) {
  return defineRoute({
    method: 'PATCH',
    path: '/api/admin/groups/:id',
    auth: 'admin',
    errors: ['invalid_fields', 'no_fields', 'invalid_name', 'invalid_remark'],
    schema: { params: IdParams, body: GroupBody },
    handler: async (req, reply) => {
      await deps.groups.update(pathId(req.params.id), {
        name: req.body.name,
        remark: req.body.remark,
      });
      return reply.code(204).send();
    },
  });
}
