import { defineRoute } from '../../../route-def.js';
import { LooseBody } from '../../../presenters/alerts.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'alerts'>;

/** POST /api/admin/alerts/rules/ — 204; any invalid field answers 400 invalid_fields. */
export function adminAlertRulesCreateRoute(deps: Deps) {
  return defineRoute({
    method: 'POST',
    path: '/api/admin/alerts/rules/',
    aliases: ['/api/admin/alerts/rules'],
    auth: 'admin',
    bodyLimit: 64 * 1024,
    validationErrorCode: 'invalid_fields',
    schema: { body: LooseBody },
    handler: async (req, reply) => {
      await deps.alerts.createRule(req.body);
      return reply.code(204).send();
    },
  });
}
