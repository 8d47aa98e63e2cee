import { defineRoute } from '../../../route-def.js';
import type { AppDeps } from '../../../../deps.js';
import { AlertServersSchema } from '../../../../protocol/api/alerts.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'alerts'>;

/** GET /api/admin/alerts/events/servers — live nodes, for the events filter. */
export function adminAlertEventsServersRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/alerts/events/servers',
    auth: 'admin',
    schema: { response: { 200: AlertServersSchema } },
    handler: async () => ({ items: await deps.alerts.servers() }),
  });
}
