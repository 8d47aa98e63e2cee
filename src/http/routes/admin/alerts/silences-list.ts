import { defineRoute } from '../../../route-def.js';
import { presentSilence } from '../../../presenters/alerts.js';
import { AlertSilencesSchema } from '../../../../protocol/api/alerts.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'alerts'>;

/** GET /api/admin/alerts/silences/ — every stored silence, latest end first, with `active`. */
export function adminAlertSilencesListRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/alerts/silences/',
    aliases: ['/api/admin/alerts/silences'],
    auth: 'admin',
    schema: { response: { 200: AlertSilencesSchema } },
    handler: async () => ({ items: (await deps.alerts.silences()).map(presentSilence) }),
  });
}
