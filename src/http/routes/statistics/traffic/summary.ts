import { Type } from 'typebox';
import { defineRoute } from '../../../route-def.js';
import type { AppDeps } from '../../../../deps.js';
import { ifaceName, serverId } from '../../../../domain/traffic/query.js';
import '../../../request-context.js';
import { TrafficSummarySchema } from '../../../../protocol/traffic.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'traffic'>;

/** GET /api/statistics/traffic/summary?server_id=&iface= — the current billing cycle. */
export function trafficSummaryRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/statistics/traffic/summary',
    auth: 'optional',
    errors: ['forbidden', 'not_found'],
    schema: {
      querystring: Type.Object({
        server_id: Type.Optional(Type.String()),
        iface: Type.Optional(Type.String()),
      }),
      response: { 200: TrafficSummarySchema },
    },
    handler: async (req) =>
      deps.traffic.reads.summary({
        nodeId: serverId(req.query.server_id),
        iface: ifaceName(req.query.iface),
        admin: req.adminSessionId !== undefined,
      }),
  });
}
