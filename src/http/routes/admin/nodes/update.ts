import { Type } from 'typebox';
import { defineRoute } from '../../../route-def.js';
import { IdParams, Int64, pathId } from '../../../schemas/common.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'nodes'>;

const Body = Type.Object({
  name: Type.Optional(Type.String()),
  is_guest_visible: Type.Optional(Type.Boolean()),
  traffic_p95_enabled: Type.Optional(Type.Boolean()),
  traffic_cycle_mode: Type.Optional(Type.String()),
  traffic_billing_start_day: Type.Optional(Int64),
  traffic_billing_anchor_date: Type.Optional(Type.String()),
  traffic_billing_timezone: Type.Optional(Type.String()),
  traffic_direction_mode: Type.Optional(Type.String()),
  display_order: Type.Optional(Int64),
  // Checked by the domain so that any non-array answers invalid_tags.
  tags: Type.Optional(Type.Unknown()),
  secret: Type.Optional(Type.String()),
  group_ids: Type.Optional(Type.Array(Int64)),
});

/** PATCH /api/admin/nodes/{id} (also with a trailing slash) — every field of spec §2.3. */
export function adminNodesUpdateRoute(deps: Deps) {
  return defineRoute({
    method: 'PATCH',
    path: '/api/admin/nodes/:id',
    aliases: ['/api/admin/nodes/:id/'],
    auth: 'admin',
    errors: [
      'invalid_fields',
      'no_fields',
      'invalid_name',
      'invalid_tags',
      'invalid_remark',
      'invalid_display_order',
      'invalid_group_ids',
      'invalid_secret',
      'duplicate_secret',
      'invalid_traffic_cycle_mode',
      'invalid_traffic_cycle_settings',
      'invalid_traffic_billing_start_day',
      'invalid_traffic_billing_anchor_date',
      'invalid_traffic_billing_timezone',
      'invalid_traffic_direction_mode',
    ],
    schema: { params: IdParams, body: Body },
    handler: async (req, reply) => {
      const b = req.body;
      await deps.nodes.update(pathId(req.params.id), {
        name: b.name,
        isGuestVisible: b.is_guest_visible,
        trafficP95Enabled: b.traffic_p95_enabled,
        cycleMode: b.traffic_cycle_mode,
        billingStartDay: b.traffic_billing_start_day,
        billingAnchorDate: b.traffic_billing_anchor_date,
        billingTimezone: b.traffic_billing_timezone,
        directionMode: b.traffic_direction_mode,
        displayOrder: b.display_order,
        tags: 'tags' in b ? b.tags : undefined,
        secret: b.secret,
        groupIds: b.group_ids,
      });
      return reply.code(204).send();
    },
  });
}
