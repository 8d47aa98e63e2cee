import { defineRoute } from '../../../route-def.js';
import { IdParams } from '../../../schemas/common.js';
import type { AppDeps } from '../../../../deps.js';
import { ruleId } from './rule-id.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'alerts'>;

/** DELETE /api/admin/alerts/rules/{id} — soft delete; open events close (rule_deleted). */
export function adminAlertRulesDeleteRoute(deps: Deps) {
  return defineRoute({
    method: 'DELETE',
    path: '/api/admin/alerts/rules/:id',
    auth: 'admin',
    errors: ['invalid_id', 'builtin_rule_readonly'],
    schema: { params: IdParams },
    handler: async (req, reply) => {
      await deps.alerts.deleteRule(ruleId(req.params.id));
      return reply.code(204).send();
    },
  });
}
