import { defineRoute } from '../../../route-def.js';
import { IdParams, pathId } from '../../../schemas/common.js';
import { LooseBody } from '../../../presenters/alerts.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'channels'>;

/** PUT /api/admin/alerts/channels/{id}/enabled — `{enabled}`; disabling pauses unsent items. */
export function adminChannelsEnabledRoute(deps: Deps) {
  return defineRoute({
    method: 'PUT',
    path: '/api/admin/alerts/channels/:id/enabled',
    auth: 'admin',
    bodyLimit: 4 * 1024,
    validationErrorCode: 'invalid_fields',
    schema: { params: IdParams, body: LooseBody },
    handler: async (req, reply) => {
      await deps.channels.setEnabled(pathId(req.params.id), req.body);
      return reply.code(204).send();
    },
  });
}
