import { defineRoute } from '../../../../route-def.js';
import type { AppDeps } from '../../../../../deps.js';
import { DashUpdateCheckSchema } from '../../../../../protocol/api/dash-update.js';
import { parseChannel, UpdateQuery } from '../../../../schemas/dash-update.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'updater'>;

/** GET /api/admin/system/dash-update/check?channel= — target version and install_revision. */
export function dashUpdateCheckRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/system/dash-update/check',
    auth: 'admin',
    errors: ['dash_update_unavailable', 'dash_update_check_failed'],
    validationErrorCode: 'invalid_fields',
    schema: { querystring: UpdateQuery, response: { 200: DashUpdateCheckSchema } },
    handler: (req) => deps.updater.check(parseChannel(req.query.channel, 'release')),
  });
}
