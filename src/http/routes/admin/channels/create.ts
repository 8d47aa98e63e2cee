import { defineRoute } from '../../../route-def.js';
import { LooseBody } from '../../../presenters/alerts.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'channels'>;

/** POST /api/admin/alerts/channels/ — create; secrets are sealed before they are stored. */
export function adminChannelsCreateRoute(deps: Deps) {
  return defineRoute({
    method: 'POST',
    path: '/api/admin/alerts/channels/',
    aliases: ['/api/admin/alerts/channels'],
    auth: 'admin',
    bodyLimit: 3 * 1024 * 1024,
    validationErrorCode: 'invalid_fields',
    schema: { body: LooseBody },
    handler: async (req, reply) => {
      await deps.channels.create(req.body);
      return reply.code(204).send();
    },
  });
}
