import { defineRoute } from '../../../../route-def.js';
import type { AppDeps } from '../../../../../deps.js';
import { SystemSettingsSchema } from '../../../../../protocol/api/settings.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'systemSettings'>;

/** GET /api/admin/system/settings/ — every system setting. */
export function settingsDetailRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/system/settings/',
    aliases: ['/api/admin/system/settings'],
    auth: 'admin',
    schema: { response: { 200: SystemSettingsSchema } },
    handler: () => deps.systemSettings.get(),
  });
}
