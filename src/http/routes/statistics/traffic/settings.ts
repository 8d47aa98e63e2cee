import { Type } from 'typebox';
import { defineRoute } from '../../../route-def.js';
import type { AppDeps } from '../../../../deps.js';
import { TrafficSettingsSchema } from '../../../../protocol/api/settings.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'config' | 'trafficSettings'>;

const PATH = '/api/statistics/traffic/settings';

/** GET /api/statistics/traffic/settings — global traffic settings (cycles are per node). */
export function trafficSettingsRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: PATH,
    auth: 'optional',
    schema: {
      response: { 200: TrafficSettingsSchema },
    },
    handler: async () => ({
      ...(await deps.trafficSettings.get()),
      // Compatibility fields: billing cycles are configured per node.
      cycle_mode: 'calendar_month',
      billing_start_day: 1,
      billing_anchor_date: '',
      billing_timezone: deps.config.timezone,
    }),
  });
}

/** PATCH /api/statistics/traffic/settings — guest_access_mode, usage_mode, direction_mode. */
export function trafficSettingsPatchRoute(deps: Deps) {
  return defineRoute({
    method: 'PATCH',
    path: PATH,
    auth: 'admin',
    errors: ['invalid_fields', 'billing_cycle_is_per_node'],
    validationErrorCode: 'no_fields',
    schema: { body: Type.Object({}, { additionalProperties: true }) },
    handler: async (req, reply) => {
      await deps.trafficSettings.patch(req.body as Record<string, unknown>);
      return reply.code(204).send();
    },
  });
}
