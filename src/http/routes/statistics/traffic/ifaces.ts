import { Type } from 'typebox';
import { defineRoute } from '../../../route-def.js';
import type { AppDeps } from '../../../../deps.js';
import { serverId } from '../../../../domain/traffic/query.js';
import '../../../request-context.js';
import { TrafficIfacesSchema } from '../../../../protocol/traffic.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'traffic'>;

/** GET /api/statistics/traffic/ifaces?server_id= — interfaces the node has reported. */
export function trafficIfacesRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/statistics/traffic/ifaces',
    auth: 'optional',
    errors: ['forbidden', 'not_found'],
    schema: {
      querystring: Type.Object({ server_id: Type.Optional(Type.String()) }),
      response: { 200: TrafficIfacesSchema },
    },
    handler: async (req) =>
      deps.traffic.reads.ifaces(serverId(req.query.server_id), req.adminSessionId !== undefined),
  });
}
