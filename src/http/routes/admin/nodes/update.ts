import { defineRoute } from '../../../route-def.js';
import { IdParams, pathId } from '../../../schemas/common.js';
import { NodePatchBody } from '../../../../protocol/api/admin-nodes.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'nodes'>;

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
    schema: { params: IdParams, body: NodePatchBody },
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
