import { defineRoute } from '../../../route-def.js';
import { IdParams, pathId } from '../../../schemas/common.js';
import type { AppDeps } from '../../../../deps.js';

/** DELETE /api/admin/alerts/silences/{id} — 204; notifications it held apply again. */
export function adminAlertSilencesDeleteRoute(deps: AppDeps) {
  return defineRoute({
    method: 'DELETE',
    path: '/api/admin/alerts/silences/:id',
    auth: 'admin',
    errors: ['invalid_id'],
    schema: { params: IdParams },
    handler: async (req, reply) => {
      await deps.alerts.deleteSilence(pathId(req.params.id));
      return reply.code(204).send();
    },
  });
}
