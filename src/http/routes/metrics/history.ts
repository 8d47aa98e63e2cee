import { Type } from 'typebox';
import { defineRoute } from '../../route-def.js';
import type { AppDeps } from '../../../deps.js';
import { rfc3339 } from '../../../platform/time-format.js';
import '../../request-context.js';
import { HistoryResponseSchema } from '../../../protocol/api/metrics.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'historyService'>;

const Query = Type.Object({
  server_id: Type.Optional(Type.String()),
  metric: Type.Optional(Type.String()),
  range: Type.Optional(Type.String()),
  agg: Type.Optional(Type.String()),
  device: Type.Optional(Type.String()),
});

/** GET /api/metrics/history — one metric of one node over a range, bucketed. */
export function historyRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/metrics/history',
    auth: 'optional',
    errors: ['not_found', 'forbidden'],
    storeErrorCode: 'service_unavailable',
    schema: {
      querystring: Query,
      response: { 200: HistoryResponseSchema },
    },
    handler: async (req) => {
      const q = req.query;
      const s = await deps.historyService.series(
        { admin: req.adminSessionId !== undefined },
        { serverId: q.server_id, metric: q.metric, range: q.range, agg: q.agg, device: q.device },
      );
      return {
        server_id: s.serverId,
        metric: s.metric,
        range: s.range,
        agg: s.agg,
        step_sec: s.stepSec,
        points: s.points.map((p) => ({
          ts: rfc3339(p.ts),
          value: Number.isFinite(p.value) ? p.value : null,
        })),
      };
    },
  });
}
