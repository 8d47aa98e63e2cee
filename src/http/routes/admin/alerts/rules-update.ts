import { defineRoute } from '../../../route-def.js';
import { IdParams } from '../../../schemas/common.js';
import { LooseBody } from '../../../presenters/alerts.js';
import type { AppDeps } from '../../../../deps.js';
import { ruleId } from './rule-id.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'alerts'>;

/** PATCH /api/admin/alerts/rules/{id} — partial update; built-ins answer 409. */
export function adminAlertRulesUpdateRoute(deps: Deps) {
  return defineRoute({
    method: 'PATCH',
    path: '/api/admin/alerts/rules/:id',
    auth: 'admin',
    bodyLimit: 64 * 1024,
    validationErrorCode: 'invalid_fields',
    errors: ['no_fields', 'invalid_id', 'builtin_rule_readonly'],
    schema: { params: IdParams, body: LooseBody },
    handler: async (req, reply) => {
      await deps.alerts.updateRule(ruleId(req.params.id), req.body);
      return reply.code(204).send();
    },
  });
}
