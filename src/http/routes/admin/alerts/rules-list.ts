import { Type } from 'typebox';
import { defineRoute } from '../../../route-def.js';
import { presentRule } from '../../../presenters/alerts.js';
import { AlertRuleSchema } from '../../../../protocol/api/alerts.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'alerts'>;

/** GET /api/admin/alerts/rules/ — user rules, newest first (built-ins are in mounts). */
export function adminAlertRulesListRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/alerts/rules/',
    aliases: ['/api/admin/alerts/rules'],
    auth: 'admin',
    schema: { response: { 200: Type.Array(AlertRuleSchema) } },
    handler: async () => (await deps.alerts.rules()).map(presentRule),
  });
}
