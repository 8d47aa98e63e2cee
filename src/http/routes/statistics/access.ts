import { Type } from 'typebox';
import { defineRoute } from '../../route-def.js';
import type { AppDeps } from '../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'systemSettings' | 'trafficSettings'>;

/** GET /api/statistics/access — what guests may read (history, traffic). */
export function accessRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/statistics/access',
    auth: 'optional',
    schema: {
      response: {
        200: Type.Object({
          history_guest_access_mode: Type.String(),
          traffic_guest_access_mode: Type.String(),
        }),
      },
    },
    handler: async () => ({
      history_guest_access_mode: (await deps.systemSettings.get()).history_guest_access_mode,
      traffic_guest_access_mode: (await deps.trafficSettings.get()).guest_access_mode,
    }),
  });
}
