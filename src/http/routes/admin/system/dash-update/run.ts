import { defineRoute } from '../../../../route-def.js';
import type { AppDeps } from '../../../../../deps.js';
import { parseAction, parseChannel, parseLang, RunBody } from '../../../../schemas/dash-update.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'updater'>;

/**
 * POST /api/admin/system/dash-update/run — 202 with the new job; 409 with the running job's
 * state when one is in flight. A stale plan is accepted and fails as install_changed.
 */
export function dashUpdateRunRoute(deps: Deps) {
  return defineRoute({
    method: 'POST',
    path: '/api/admin/system/dash-update/run',
    auth: 'admin',
    errors: ['dash_update_unavailable', 'dash_update_current', 'dash_update_check_failed'],
    bodyLimit: 16 * 1024,
    validationErrorCode: 'invalid_fields',
    schema: { body: RunBody },
    handler: async (req, reply) => {
      const b = req.body;
      const { code, state } = await deps.updater.run({
        action: parseAction(b.action),
        channel: parseChannel(b.channel, 'release'),
        lang: parseLang(b.lang, true),
        ...(b.target_version !== undefined ? { target_version: b.target_version } : {}),
        ...(b.expected_current_version !== undefined
          ? { expected_current_version: b.expected_current_version }
          : {}),
        ...(b.expected_install_revision !== undefined
          ? { expected_install_revision: b.expected_install_revision }
          : {}),
      });
      return reply.code(code).send(state);
    },
  });
}
