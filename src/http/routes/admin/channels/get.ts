import { defineRoute } from '../../../route-def.js';
import { IdParams, pathId } from '../../../schemas/common.js';
import { presentChannel } from '../../../presenters/channels.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'channels'>;

/** GET /api/admin/alerts/channels/{id} */
export function adminChannelsGetRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/alerts/channels/:id',
    auth: 'admin',
    schema: { params: IdParams },
    handler: async (req) => presentChannel(await deps.channels.get(pathId(req.params.id))),
  });
}
