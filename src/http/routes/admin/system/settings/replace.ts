import { defineRoute } from '../../../../route-def.js';
import type { AppDeps } from '../../../../../deps.js';
import { SettingsBody } from '../../../../../protocol/api/settings.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'systemSettings'>;

/** PUT /api/admin/system/settings/ — replace; the first six fields are required. */
export function settingsReplaceRoute(deps: Deps) {
  return defineRoute({
    method: 'PUT',
    path: '/api/admin/system/settings/',
    aliases: ['/api/admin/system/settings'],
    auth: 'admin',
    errors: ['invalid_fields'],
    validationErrorCode: 'invalid_fields',
    schema: { body: SettingsBody },
    handler: async (req, reply) => {
      await deps.systemSettings.replace(req.body as Record<string, unknown>);
      return reply.code(204).send();
    },
  });
}
