/** Wire shapes of the admin node and group endpoints (reference §5.1–5.2, spec §2.3). */
import { Type, type Static } from 'typebox';
import { Int64, OneOf } from './scalars.js';

export { CYCLE_MODES, DIRECTION_MODES, type CycleMode, type DirectionMode } from './constants.js';

/**
 * Item of GET /api/admin/nodes/; ip is left out while unknown. The modes are the stored
 * strings (older rows may hold the legacy `default`), so the UI narrows them itself.
 */
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
export type AdminNode = Static<typeof AdminNodeSchema>;

/**
 * PATCH /api/admin/nodes/{id} body. Modes are plain strings here: the domain checks each with
 * its own error code (invalid_traffic_cycle_mode...), which a schema enum would pre-empt.
 */
export const NodePatchBody = Type.Object({
  name: Type.Optional(Type.String()),
  is_guest_visible: Type.Optional(Type.Boolean()),
  traffic_p95_enabled: Type.Optional(Type.Boolean()),
  traffic_cycle_mode: Type.Optional(Type.String()),
  traffic_billing_start_day: Type.Optional(Int64),
  traffic_billing_anchor_date: Type.Optional(Type.String()),
  traffic_billing_timezone: Type.Optional(Type.String()),
  traffic_direction_mode: Type.Optional(Type.String()),
  display_order: Type.Optional(Int64),
  tags: Type.Optional(Type.Unknown()),
  secret: Type.Optional(Type.String()),
  group_ids: Type.Optional(Type.Array(Int64)),
});
export type NodePatch = Static<typeof NodePatchBody>;

const Script = Type.Object({ url: Type.String(), command_prefix: Type.String() });
export type DeployScript = Static<typeof Script>;

export const PublishedAgentSchema = Type.Object({
  id: Type.String(),
  asset: Type.String(),
  /** linux, macos or windows. */
  os: Type.String(),
  arch: Type.String(),
  libc: Type.Optional(Type.String()),
  published: Type.Boolean(),
  problem: Type.Optional(Type.String()),
});
export type PublishedAgent = Static<typeof PublishedAgentSchema>;

/** GET /api/admin/nodes/deploy. */
export const DeployInfoSchema = Type.Object({
  scripts: Type.Object({ linux: Script, macos: Script, windows: Script }),
  /** The address install commands use; a warning when nodes elsewhere cannot reach it. */
  address: Type.Object({
    url: Type.String(),
    source: OneOf(['config', 'request']),
    warning: Type.Optional(Type.String()),
  }),
  agents: Type.Array(PublishedAgentSchema),
  add_agents_command: Type.String(),
});
export type DeployInfo = Static<typeof DeployInfoSchema>;

/** Item of GET /api/admin/groups/. */
export const AdminGroupSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  remark: Type.String(),
  server_count: Type.Integer(),
});
export type AdminGroup = Static<typeof AdminGroupSchema>;

/** POST and PATCH /api/admin/groups/ body; the service checks the values (invalid_name...). */
export const GroupBody = Type.Object({
  name: Type.Optional(Type.String()),
  remark: Type.Optional(Type.String()),
});
export type GroupInput = Static<typeof GroupBody>;
