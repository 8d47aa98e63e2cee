import { Type } from 'typebox';
import { defineRoute } from '../../../route-def.js';
import { presentChannel } from '../../../presenters/channels.js';
import type { AppDeps } from '../../../../deps.js';
import { ChannelSchema } from '../../../../protocol/api/channels.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'channels'>;

/** GET /api/admin/alerts/channels/ — every channel, newest first, with delivery health. */
export function adminChannelsListRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/alerts/channels/',
    aliases: ['/api/admin/alerts/channels'],
    auth: 'admin',
    schema: { response: { 200: Type.Array(ChannelSchema) } },
    handler: async () => (await deps.channels.list()).map(presentChannel),
  });
}
