import { defineRoute } from '../../../route-def.js';
import { rfc3339 } from '../../../../platform/time-format.js';
import type { AppDeps } from '../../../../deps.js';
import { AlertSummarySchema } from '../../../../protocol/api/alerts.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'alerts'>;

/** GET /api/admin/alerts/events/summary — open alerts per node (the dashboard badge). */
export function adminAlertEventsSummaryRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/alerts/events/summary',
    auth: 'admin',
    schema: { response: { 200: AlertSummarySchema } },
    handler: async () => ({
      items: (await deps.alerts.summary()).map((s) => ({
        server_id: s.serverId,
        open_count: s.openCount,
        last_trigger_at: rfc3339(s.lastTriggerAt),
        metric: s.metric,
        rule_name: s.ruleName,
        metrics: s.metrics,
      })),
    }),
  });
}
