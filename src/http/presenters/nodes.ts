import { Type } from 'typebox';
import type { AdminNode } from '../../domain/nodes/service.js';

export const AdminNodeSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  hostname: Type.String(),
  ip: Type.Optional(Type.String()),
  is_guest_visible: Type.Boolean(),
  traffic_p95_enabled: Type.Boolean(),
  traffic_cycle_mode: Type.String(),
  traffic_billing_start_day: Type.Integer(),
  traffic_billing_anchor_date: Type.String(),
  traffic_billing_timezone: Type.String(),
  traffic_direction_mode: Type.String(),
  secret: Type.String(),
  tags: Type.Array(Type.String()),
  display_order: Type.Integer(),
  group_ids: Type.Array(Type.Integer()),
  version: Type.Object({
    version: Type.String(),
    is_outdated: Type.Boolean(),
    supports_auto_update: Type.Boolean(),
  }),
});

/** Admin node list item (reference §5.2); ip is left out while unknown. */
export function presentAdminNode(n: AdminNode) {
  return {
    id: n.id,
    name: n.name,
    hostname: n.hostname,
    ...(n.ip ? { ip: n.ip } : {}),
    is_guest_visible: n.isGuestVisible,
    traffic_p95_enabled: n.trafficP95Enabled,
    traffic_cycle_mode: n.trafficCycleMode,
    traffic_billing_start_day: n.trafficBillingStartDay,
    traffic_billing_anchor_date: n.trafficBillingAnchorDate,
    traffic_billing_timezone: n.trafficBillingTimezone,
    traffic_direction_mode: n.trafficDirectionMode,
    secret: n.secret,
    tags: n.tags,
    display_order: n.displayOrder,
    group_ids: n.groupIds,
    version: {
      version: n.version.version,
      is_outdated: n.version.isOutdated,
      supports_auto_update: n.version.supportsAutoUpdate,
    },
  };
}
