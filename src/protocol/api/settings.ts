/** Wire shapes of the system and traffic settings (spec §2.10, reference §6.1, §9.1). */
import { Type, type Static } from 'typebox';
import { GUEST_MODES, UPDATE_CHANNELS } from './constants.js';
import { OneOf } from './scalars.js';

/** GET /api/admin/system/settings/. */
export const SystemSettingsSchema = Type.Object({
  history_guest_access_mode: OneOf(GUEST_MODES),
  dash_update_channel: OneOf(UPDATE_CHANNELS),
  dash_update_mode: OneOf(['manual', 'notify', 'auto']),
  logo_url: Type.String(),
  page_title: Type.String(),
  topbar_text: Type.String(),
  uptime_guest_visible: Type.Boolean(),
  uptime_warning_sla: Type.Number(),
  uptime_error_sla: Type.Number(),
});
export type SystemSettings = Static<typeof SystemSettingsSchema>;

/** PATCH (and PUT) body: any object; the settings service checks fields (invalid_fields). */
export const SettingsBody = Type.Object({}, { additionalProperties: true });
export type SystemSettingsPatch = Partial<SystemSettings>;

/** GET /api/statistics/traffic/settings: global settings (cycles are per node). */
export const TrafficSettingsSchema = Type.Object({
  /** The three modes are checked on write and stored as text. */
  guest_access_mode: Type.String(),
  usage_mode: Type.String(),
  cycle_mode: Type.String(),
  billing_start_day: Type.Integer(),
  billing_anchor_date: Type.String(),
  billing_timezone: Type.String(),
  direction_mode: Type.String(),
});
export type TrafficSettings = Static<typeof TrafficSettingsSchema>;
export type TrafficSettingsPatch = Partial<
  Pick<TrafficSettings, 'guest_access_mode' | 'usage_mode' | 'direction_mode'>
>;
