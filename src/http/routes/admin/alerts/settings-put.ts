import { Type } from 'typebox';
import { defineRoute } from '../../../route-def.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'alerts'>;

const Body = Type.Object({
  enabled: Type.Boolean(),
  channel_ids: Type.Array(Type.Integer(), { maxItems: 100 }),
});

/** PUT /api/admin/alerts/settings/ — both fields required; duplicate or unknown channels 400. */
export function adminAlertSettingsPutRoute(deps: Deps) {
  return defineRoute({
    method: 'PUT',
    path: '/api/admin/alerts/settings/',
    aliases: ['/api/admin/alerts/settings'],
    auth: 'admin',
    bodyLimit: 64 * 1024,
    validationErrorCode: 'invalid_fields',
    schema: { body: Body },
    handler: async (req, reply) => {
      await deps.alerts.putSettings(req.body.enabled, req.body.channel_ids);
      return reply.code(204).send();
    },
  });
}
