import { defineRoute } from '../../../route-def.js';
import { IdParams, pathId } from '../../../schemas/common.js';
import type { AppDeps } from '../../../../deps.js';

/**
 * POST /api/admin/alerts/events/{id}/ack — 204; the event stays open and its repeat
 * notifications stop. Acknowledging twice keeps the first time; a closed event is 409.
 */
export function adminAlertEventsAckRoute(deps: AppDeps) {
  return defineRoute({
    method: 'POST',
    path: '/api/admin/alerts/events/:id/ack',
    auth: 'admin',
    errors: ['invalid_id', 'alert_event_closed'],
    schema: { params: IdParams },
    handler: async (req, reply) => {
      await deps.alerts.ack(pathId(req.params.id));
      return reply.code(204).send();
    },
  });
}
