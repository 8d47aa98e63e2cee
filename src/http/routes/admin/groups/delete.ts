import { defineRoute } from '../../../route-def.js';
import { IdParams, pathId } from '../../../schemas/common.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'groups'>;

/** DELETE /api/admin/groups/{id} — soft delete; the default group (id 1) answers 409. */
export function adminGroupsDeleteRoute(deps: Deps) {
  return defineRoute({
    method: 'DELETE',
    path: '/api/admin/groups/:id',
    auth: 'admin',
    errors: ['default_group_not_deletable'],
    schema: { params: IdParams },
    handler: async (req, reply) => {
      await deps.groups.delete(pathId(req.params.id));
      return reply.code(204).send();
    },
  });
}
