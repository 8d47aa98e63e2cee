import { defineRoute } from '../../../route-def.js';
import { rfc3339 } from '../../../../platform/time-format.js';
import type { AppDeps } from '../../../../deps.js';
import { AlertSettingsSchema } from '../../../../protocol/api/alerts.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'alerts'>;

/** GET /api/admin/alerts/settings/ — defaults (enabled, no channels) until the first PUT. */
export function adminAlertSettingsGetRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/alerts/settings/',
    aliases: ['/api/admin/alerts/settings'],
    auth: 'admin',
    schema: { response: { 200: AlertSettingsSchema } },
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
