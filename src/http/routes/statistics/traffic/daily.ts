import { Type } from 'typebox';
import { defineRoute } from '../../../route-def.js';
import type { AppDeps } from '../../../../deps.js';
import { ifaceName, period, serverId } from '../../../../domain/traffic/query.js';
import '../../../request-context.js';
import { TrafficDailySchema } from '../../../../protocol/traffic.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'traffic'>;

/** GET /api/statistics/traffic/daily?server_id=&iface=&period= — days of a cycle (Billing). */
export function trafficDailyRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/statistics/traffic/daily',
    auth: 'optional',
    errors: ['forbidden', 'not_found', 'traffic_daily_requires_billing'],
    schema: {
      querystring: Type.Object({
        server_id: Type.Optional(Type.String()),
        iface: Type.Optional(Type.String()),
        period: Type.Optional(Type.String()),
      }),
      response: { 200: TrafficDailySchema },
    },
    handler: async (req) =>
      deps.traffic.reads.daily({
        nodeId: serverId(req.query.server_id),
        iface: ifaceName(req.query.iface),
        period: period(req.query.period),
        admin: req.adminSessionId !== undefined,
      }),
  });
}
