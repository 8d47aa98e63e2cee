import { Type } from 'typebox';
import { defineRoute } from '../../route-def.js';
import type { AppDeps } from '../../../deps.js';
import { presentUptime, presentUptimeDay } from '../../presenters/uptime.js';
import '../../request-context.js';
import { UptimeDayResponseSchema, UptimeResponseSchema } from '../../../protocol/api/metrics.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'uptime'>;

/** GET /api/metrics/uptime — 45 local days per visible node, oldest first. */
export function uptimeRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/metrics/uptime',
    aliases: ['/api/metrics/uptime/'],
    auth: 'optional',
    storeErrorCode: 'service_unavailable',
    schema: { response: { 200: UptimeResponseSchema } },
    handler: async (req) =>
      presentUptime(await deps.uptime.overview({ admin: req.adminSessionId !== undefined })),
  });
}

/** GET /api/metrics/uptime/day?server_id=&date= — 24 local clock hours of one day. */
export function uptimeDayRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/metrics/uptime/day',
    aliases: ['/api/metrics/uptime/day/'],
    auth: 'optional',
    errors: ['invalid_request', 'not_found', 'forbidden'],
    storeErrorCode: 'service_unavailable',
    schema: {
      querystring: Type.Object({
        server_id: Type.Optional(Type.String()),
        date: Type.Optional(Type.String()),
      }),
      response: { 200: UptimeDayResponseSchema },
    },
    handler: async (req) =>
      presentUptimeDay(
        await deps.uptime.day(
          { admin: req.adminSessionId !== undefined },
          req.query.server_id,
          req.query.date,
        ),
      ),
  });
}
