import { Type } from 'typebox';

export const SettingsResponse = Type.Object({
  history_guest_access_mode: Type.String(),
  dash_update_channel: Type.String(),
  dash_update_mode: Type.String(),
  logo_url: Type.String(),
  page_title: Type.String(),
  topbar_text: Type.String(),
  uptime_guest_visible: Type.Boolean(),
  uptime_warning_sla: Type.Number(),
  uptime_error_sla: Type.Number(),
});

/** Any JSON object: fields are validated by the settings service (400 invalid_fields). */
export const SettingsBody = Type.Object({}, { additionalProperties: true });
