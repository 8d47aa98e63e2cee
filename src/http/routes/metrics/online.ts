import { Type } from 'typebox';
import { defineRoute } from '../../route-def.js';
import type { AppDeps } from '../../../deps.js';
import { rfc3339 } from '../../../platform/time-format.js';
import '../../request-context.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'onlineRate'>;

/** GET /api/metrics/online?server_id=&range=24h|7d — 48 completed buckets of report rate. */
export function onlineRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/metrics/online',
    auth: 'optional',
    errors: ['not_found', 'forbidden'],
    schema: {
      querystring: Type.Object({
        server_id: Type.Optional(Type.String()),
        range: Type.Optional(Type.String()),
      }),
      response: {
        200: Type.Object({
          server_id: Type.Integer(),
          range: Type.String(),
          step_sec: Type.Integer(),
          points: Type.Array(
            Type.Object({ ts: Type.String(), status: Type.Integer(), rate: Type.Number() }),
          ),
        }),
      },
    },
    handler: async (req) => {
      const s = await deps.onlineRate.series(
        { admin: req.adminSessionId !== undefined },
        req.query.server_id,
        req.query.range,
      );
      return {
        server_id: s.serverId,
        range: s.range,
        step_sec: s.stepSec,
        points: s.points.map((p) => ({ ts: rfc3339(p.ts), status: p.status, rate: p.rate })),
      };
    },
  });
}
