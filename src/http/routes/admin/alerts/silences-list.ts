import { Type } from 'typebox';
import { defineRoute } from '../../../route-def.js';
import { presentSilence, SilenceItem } from '../../../presenters/alerts.js';
import type { AppDeps } from '../../../../deps.js';

/** GET /api/admin/alerts/silences/ — every stored silence, latest end first, with `active`. */
export function adminAlertSilencesListRoute(deps: AppDeps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/alerts/silences/',
    aliases: ['/api/admin/alerts/silences'],
    auth: 'admin',
    schema: { response: { 200: Type.Object({ items: Type.Array(SilenceItem) }) } },
    handler: async () => ({ items: (await deps.alerts.silences()).map(presentSilence) }),
  });
}
