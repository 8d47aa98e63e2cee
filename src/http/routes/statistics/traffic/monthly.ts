import { Type } from 'typebox';
import { defineRoute } from '../../../route-def.js';
import type { AppDeps } from '../../../../deps.js';
import { ifaceName, months, period, serverId } from '../../../../domain/traffic/query.js';
import '../../../request-context.js';
import { TrafficMonthlySchema } from '../../../../protocol/traffic.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'traffic'>;

/** GET /api/statistics/traffic/monthly?server_id=&iface=&months=&period= — cycle history. */
export function trafficMonthlyRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/statistics/traffic/monthly',
    auth: 'optional',
    errors: ['forbidden', 'not_found'],
    schema: {
      querystring: Type.Object({
        server_id: Type.Optional(Type.String()),
        iface: Type.Optional(Type.String()),
        period: Type.Optional(Type.String()),
        months: Type.Optional(Type.String()),
      }),
      response: { 200: TrafficMonthlySchema },
    },
    handler: async (req) =>
      deps.traffic.reads.monthly({
        nodeId: serverId(req.query.server_id),
        iface: ifaceName(req.query.iface),
        period: period(req.query.period),
        months: months(req.query.months),
        admin: req.adminSessionId !== undefined,
      }),
  });
}
