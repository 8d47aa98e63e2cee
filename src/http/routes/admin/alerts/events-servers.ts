import { Type } from 'typebox';
import { defineRoute } from '../../../route-def.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'alerts'>;

const Response = Type.Object({
  items: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
});

/** GET /api/admin/alerts/events/servers — live nodes, for the events filter. */
export function adminAlertEventsServersRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/alerts/events/servers',
    auth: 'admin',
    schema: { response: { 200: Response } },
    handler: async () => ({ items: await deps.alerts.servers() }),
  });
}
