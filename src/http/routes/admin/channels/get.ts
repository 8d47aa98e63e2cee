import { defineRoute } from '../../../route-def.js';
import { IdParams, pathId } from '../../../schemas/common.js';
import { presentChannel } from '../../../presenters/channels.js';
import type { AppDeps } from '../../../../deps.js';

/** GET /api/admin/alerts/channels/{id} */
export function adminChannelsGetRoute(deps: AppDeps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/alerts/channels/:id',
    auth: 'admin',
    schema: { params: IdParams },
    handler: async (req) => presentChannel(await deps.channels.get(pathId(req.params.id))),
  });
}
