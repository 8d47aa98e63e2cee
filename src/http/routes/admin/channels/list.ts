import { defineRoute } from '../../../route-def.js';
import { presentChannel } from '../../../presenters/channels.js';
import type { AppDeps } from '../../../../deps.js';

/** GET /api/admin/alerts/channels/ — every channel, newest first, with delivery health. */
export function adminChannelsListRoute(deps: AppDeps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/alerts/channels/',
    aliases: ['/api/admin/alerts/channels'],
    auth: 'admin',
    handler: async () => (await deps.channels.list()).map(presentChannel),
  });
}
