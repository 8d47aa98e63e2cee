import type { AdminNode } from '../../domain/nodes/service.js';
import type { AdminNode as AdminNodeWire } from '../../protocol/api/admin-nodes.js';

/** Admin node list item (reference §5.2); ip is left out while unknown. */
export function presentAdminNode(n: AdminNode): AdminNodeWire {
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
