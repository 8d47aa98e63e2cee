import { defineRoute } from '../../../../route-def.js';
import type { AppDeps } from '../../../../../deps.js';

/** GET /api/admin/system/dash-update/status — last job, availability, what notify mode saw. */
export function dashUpdateStatusRoute(deps: AppDeps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/system/dash-update/status',
    auth: 'admin',
    handler: () => deps.updater.status(),
  });
}
