import { Type } from 'typebox';
import { defineRoute } from '../../../../route-def.js';
import type { AppDeps } from '../../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'themes'>;

/** DELETE /api/admin/system/themes/{id} — built-in and active themes answer 409. */
export function themesDeleteRoute(deps: Deps) {
  return defineRoute({
    method: 'DELETE',
    path: '/api/admin/system/themes/:id',
    auth: 'admin',
    errors: [
      'invalid_theme_id',
      'builtin_theme_not_deletable',
      'active_theme_not_deletable',
      'theme_storage_unavailable',
    ],
    storeErrorCode: 'theme_storage_unavailable',
    schema: { params: Type.Object({ id: Type.String() }) },
    handler: async (req, reply) => {
      await deps.themes.remove(req.params.id);
      return reply.code(204).send();
    },
  });
}
