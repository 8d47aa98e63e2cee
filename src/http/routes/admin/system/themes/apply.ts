import { Type } from 'typebox';
import { defineRoute } from '../../../../route-def.js';
import type { AppDeps } from '../../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'themes'>;

/** POST /api/admin/system/themes/{id}/apply — `default`, a built-in or a valid uploaded theme. */
export function themesApplyRoute(deps: Deps) {
  return defineRoute({
    method: 'POST',
    path: '/api/admin/system/themes/:id/apply',
    auth: 'admin',
    errors: ['invalid_theme_id', 'theme_unavailable', 'theme_storage_unavailable'],
    schema: { params: Type.Object({ id: Type.String() }) },
    handler: async (req, reply) => {
      await deps.themes.apply(req.params.id);
      return reply.code(204).send();
    },
  });
}
