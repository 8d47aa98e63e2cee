import { defineRoute } from '../../../route-def.js';
import { LooseBody } from '../../../presenters/alerts.js';
import type { AppDeps } from '../../../../deps.js';
import { CreatedIdSchema } from '../../../../protocol/api/alerts.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'alerts'>;

/**
 * POST /api/admin/alerts/silences/ `{scope, target_id, ends_at, note?}` — 201 `{id}`; every
 * invalid field answers 400 invalid_silence.
 */
export function adminAlertSilencesCreateRoute(deps: Deps) {
  return defineRoute({
    method: 'POST',
    path: '/api/admin/alerts/silences/',
    aliases: ['/api/admin/alerts/silences'],
    auth: 'admin',
    bodyLimit: 16 * 1024,
    validationErrorCode: 'invalid_silence',
    errors: ['invalid_silence'],
    schema: { body: LooseBody, response: { 201: CreatedIdSchema } },
    handler: async (req, reply) => {
      const id = await deps.alerts.createSilence(req.body);
      return reply.code(201).send({ id });
    },
  });
}
