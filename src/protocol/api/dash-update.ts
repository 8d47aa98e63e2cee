/** Wire shapes of Dash's self-update endpoints (docs/operations.md). */
import { Type, type Static } from 'typebox';
import { UPDATE_CHANNELS } from './constants.js';
import { OneOf } from './scalars.js';

export { UPDATE_CHANNELS, type UpdateChannel } from './constants.js';

/** GET …/dash-update/status (and the answer of run): the last job, availability, notify mode. */
export const DashUpdateStatusSchema = Type.Object({
  id: Type.Optional(Type.String()),
  status: OneOf(['idle', 'running', 'completed', 'failed']),
  action: Type.Optional(OneOf(['update', 'reinstall'])),
  channel: Type.Optional(OneOf(UPDATE_CHANNELS)),
  origin: Type.Optional(OneOf(['admin', 'auto'])),
  target_version: Type.Optional(Type.String()),
  from_version: Type.Optional(Type.String()),
  phase: Type.Optional(Type.String()),
  failure_code: Type.Optional(Type.String()),
  recovery_path: Type.Optional(Type.String()),
  started_at: Type.Optional(Type.String()),
  finished_at: Type.Optional(Type.String()),
  exit_code: Type.Optional(Type.Integer()),
  log_tail: Type.Optional(Type.String()),
  available: Type.Boolean(),
  unavailable_reason: Type.Optional(Type.String()),
  current_version: Type.String(),
  update_available_version: Type.Optional(Type.String()),
  last_checked_at: Type.Optional(Type.String()),
});
export type DashUpdateStatus = Static<typeof DashUpdateStatusSchema>;

/** GET …/dash-update/check: the plan a run must repeat (a stale one fails install_changed). */
export const DashUpdateCheckSchema = Type.Object({
  current_version: Type.String(),
  current_channel: OneOf(UPDATE_CHANNELS),
  target_channel: OneOf(UPDATE_CHANNELS),
  latest_version: Type.String(),
  install_revision: Type.String(),
  version_status: OneOf(['available', 'current', 'ahead', 'unknown']),
  bundled_node_version: Type.String(),
});
export type DashUpdateCheck = Static<typeof DashUpdateCheckSchema>;

export const ReleaseNotesSchema = Type.Object({ source_url: Type.String(), html: Type.String() });
export type ReleaseNotes = Static<typeof ReleaseNotesSchema>;

export const UpdateQuery = Type.Object({
  channel: Type.Optional(Type.String()),
  lang: Type.Optional(Type.String()),
});

/** POST run: enums are checked by hand so every bad value answers 400 invalid_fields. */
export const RunBody = Type.Object(
  {
    action: Type.String(),
    channel: Type.String(),
    lang: Type.String(),
    target_version: Type.Optional(Type.String({ maxLength: 64 })),
    expected_current_version: Type.Optional(Type.String({ maxLength: 64 })),
    expected_install_revision: Type.Optional(Type.String({ maxLength: 128 })),
  },
  { additionalProperties: true },
);
export type RunRequestBody = Static<typeof RunBody>;
