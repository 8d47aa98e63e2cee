import { defineRoute } from '../../../route-def.js';
import type { AppDeps } from '../../../../deps.js';
import { AlertMountsSchema } from '../../../../protocol/api/alerts.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'alerts'>;

/** GET /api/admin/alerts/mounts/ — built-ins first, then user rules; one entry per node and rule. */
export function adminAlertMountsGetRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/alerts/mounts/',
    aliases: ['/api/admin/alerts/mounts'],
    auth: 'admin',
    schema: { response: { 200: AlertMountsSchema } },
    handler: async () => {
      const m = await deps.alerts.mounts();
      return {
        rules: m.rules.map((r) => ({
          id: r.id,
          name: r.name,
          metric: r.metric,
          builtin: r.builtin,
          enabled: r.enabled,
          default_mounted: r.defaultMounted,
        })),
        nodes: m.nodes.map((n) => ({
          id: n.id,
          name: n.name,
          hostname: n.hostname,
          ...(n.ip ? { ip: n.ip } : {}),
          group_ids: n.groupIds,
          mounts: n.mounts.map((x) => ({ rule_id: x.ruleId, mounted: x.mounted })),
        })),
      };
    },
  });
}
