import { defineRoute } from '../../route-def.js';
import type { AppDeps } from '../../../deps.js';
import { AccessSettingsSchema } from '../../../protocol/api/metrics.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'systemSettings' | 'trafficSettings'>;

/** GET /api/statistics/access — what guests may read (history, traffic). */
export function accessRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/statistics/access',
    auth: 'optional',
    schema: {
      response: { 200: AccessSettingsSchema },
    },
    handler: async () => ({
      history_guest_access_mode: (await deps.systemSettings.get()).history_guest_access_mode,
      traffic_guest_access_mode: (await deps.trafficSettings.get()).guest_access_mode,
    }),
  });
}
