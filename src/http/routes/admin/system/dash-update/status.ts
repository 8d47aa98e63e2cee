import { defineRoute } from '../../../../route-def.js';
import type { AppDeps } from '../../../../../deps.js';
import { DashUpdateStatusSchema } from '../../../../../protocol/api/dash-update.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'updater'>;

/** GET /api/admin/system/dash-update/status — last job, availability, what notify mode saw. */
export function dashUpdateStatusRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/system/dash-update/status',
    auth: 'admin',
    schema: { response: { 200: DashUpdateStatusSchema } },
    handler: () => deps.updater.status(),
  });
}
