import { Type } from 'typebox';
import { defineRoute } from '../../../route-def.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'alerts'>;

const Body = Type.Object({
  rule_ids: Type.Array(Type.Integer(), { minItems: 1, maxItems: 10_000 }),
  server_ids: Type.Array(Type.Integer(), { minItems: 1, maxItems: 10_000 }),
  mounted: Type.Boolean(),
});

/** PUT /api/admin/alerts/mounts/ — mounts or unmounts rules on nodes; 204. */
export function adminAlertMountsPutRoute(deps: Deps) {
  return defineRoute({
    method: 'PUT',
    path: '/api/admin/alerts/mounts/',
    aliases: ['/api/admin/alerts/mounts'],
    auth: 'admin',
    bodyLimit: 1024 * 1024,
    validationErrorCode: 'invalid_fields',
    schema: { body: Body },
    handler: async (req, reply) => {
      await deps.alerts.setMounts(req.body.rule_ids, req.body.server_ids, req.body.mounted);
      return reply.code(204).send();
    },
  });
}
