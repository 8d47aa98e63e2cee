import { Type } from 'typebox';
import { defineRoute } from '../../../route-def.js';
import { rfc3339 } from '../../../../platform/time-format.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'alerts'>;

const Response = Type.Object({
  enabled: Type.Boolean(),
  channel_ids: Type.Array(Type.Integer()),
  repeat_max: Type.Integer(),
  flap_threshold: Type.Integer(),
  flap_window_min: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
});

/** GET /api/admin/alerts/settings/ — defaults (enabled, no channels) until the first PUT. */
export function adminAlertSettingsGetRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/alerts/settings/',
    aliases: ['/api/admin/alerts/settings'],
    auth: 'admin',
    schema: { response: { 200: Response } },
    handler: async () => {
      const s = await deps.alerts.settings();
      return {
        enabled: s.enabled,
        channel_ids: s.channelIds,
        repeat_max: s.repeatMax,
        flap_threshold: s.flapThreshold,
        flap_window_min: s.flapWindowMin,
        created_at: rfc3339(s.createdAt),
        updated_at: rfc3339(s.updatedAt),
      };
    },
  });
}
