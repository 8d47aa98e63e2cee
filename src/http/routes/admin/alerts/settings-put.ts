import { Type } from 'typebox';
import { defineRoute } from '../../../route-def.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'alerts'>;

const Body = Type.Object({
  enabled: Type.Boolean(),
  channel_ids: Type.Array(Type.Integer(), { maxItems: 100 }),
  repeat_max: Type.Optional(Type.Integer()),
  flap_threshold: Type.Optional(Type.Integer()),
  flap_window_min: Type.Optional(Type.Integer()),
});

/**
 * PUT /api/admin/alerts/settings/ — `enabled` and `channel_ids` required; duplicate or unknown
 * channels 400. The repeat cap and flap settings are optional and keep their value if absent.
 */
export function adminAlertSettingsPutRoute(deps: Deps) {
  return defineRoute({
    method: 'PUT',
    path: '/api/admin/alerts/settings/',
    aliases: ['/api/admin/alerts/settings'],
    auth: 'admin',
    bodyLimit: 64 * 1024,
    validationErrorCode: 'invalid_fields',
    schema: { body: Body },
    handler: async (req, reply) => {
      const b = req.body;
      await deps.alerts.putSettings({
        enabled: b.enabled,
        channelIds: b.channel_ids,
        ...(b.repeat_max !== undefined ? { repeatMax: b.repeat_max } : {}),
        ...(b.flap_threshold !== undefined ? { flapThreshold: b.flap_threshold } : {}),
        ...(b.flap_window_min !== undefined ? { flapWindowMin: b.flap_window_min } : {}),
      });
      return reply.code(204).send();
    },
  });
}
