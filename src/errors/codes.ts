/**
 * THE error catalog: every `{code, message}` Dash answers comes from here.
 * Codes are the exact wire strings of the Ithiltir API (spec §7, reference Appendix A),
 * so existing clients keep working. docs/errors.md is generated from this table and a test
 * checks they agree.
 */
export const ERROR_CODES = {
  // 400
  invalid_request: { status: 400, message: 'invalid request' },
  invalid_json: { status: 400, message: 'malformed JSON body' },
  invalid_persistence: { status: 400, message: 'persistence must be "session" or "persistent"' },
  invalid_id: { status: 400, message: 'id must be a positive integer' },
  invalid_fields: { status: 400, message: 'invalid fields' },
  no_fields: { status: 400, message: 'no recognised fields to update' },
  invalid_name: { status: 400, message: 'name must be 1-64 characters without control characters' },
  invalid_tags: { status: 400, message: 'invalid tags' },
  invalid_remark: {
    status: 400,
    message: 'remark must be at most 255 characters without control characters',
  },
  invalid_display_order: { status: 400, message: 'display_order must be a positive integer' },
  invalid_group_ids: { status: 400, message: 'group_ids must list existing groups' },
  invalid_ids: { status: 400, message: 'ids must be 1-10000 unique positive integers' },
  invalid_traffic_cycle_mode: { status: 400, message: 'invalid traffic cycle mode' },
  invalid_traffic_cycle_settings: {
    status: 400,
    message: 'cycle fields do not match the cycle mode',
  },
  invalid_traffic_billing_start_day: { status: 400, message: 'billing start day must be 1-31' },
  invalid_traffic_billing_anchor_date: { status: 400, message: 'invalid billing anchor date' },
  invalid_traffic_billing_timezone: { status: 400, message: 'unknown time zone' },
  invalid_traffic_direction_mode: { status: 400, message: 'invalid traffic direction mode' },
  invalid_traffic_adjustment_iface: {
    status: 400,
    message: 'iface must name one interface: 1-64 characters, no control characters, not "all"',
  },
  invalid_traffic_adjustment_cycle: {
    status: 400,
    message: "cycle_start must be the RFC 3339 start of one of the node's billing cycles",
  },
  invalid_traffic_adjustment_direction: {
    status: 400,
    message: 'direction must be in, out or total',
  },
  invalid_traffic_adjustment_bytes: {
    status: 400,
    message: 'billed_bytes must be a positive integer of at most 2^53 - 1',
  },
  invalid_traffic_adjustment_note: {
    status: 400,
    message: 'note must be at most 255 characters without control characters',
  },
  invalid_session: { status: 400, message: 'session id must not be blank' },
  invalid_secret: { status: 400, message: 'secret must be 8-128 characters after trimming' },
  billing_cycle_is_per_node: { status: 400, message: 'billing cycles are configured per node' },
  invalid_theme_package: { status: 400, message: 'invalid theme package' },
  invalid_theme_id: { status: 400, message: 'invalid theme id' },
  invalid_clear_threshold: {
    status: 400,
    message:
      'clear_threshold must be on the clearing side of threshold (at most it for > and >=, at least it for < and <=, equal to it for == and !=)',
  },
  invalid_silence: {
    status: 400,
    message:
      'a silence needs scope node, group or rule, an existing target_id, a future ends_at within a year and a note of at most 255 characters',
  },
  not_logged_in: { status: 400, message: 'the channel has no MTProto session' },
  // 401, 403, 404, 405
  unauthorized: { status: 401, message: 'unauthorized' },
  forbidden: { status: 403, message: 'forbidden' },
  not_found: { status: 404, message: 'not found' },
  method_not_allowed: { status: 405, message: 'method not allowed' },
  // 409
  duplicate_secret: { status: 409, message: 'secret is already used by another node' },
  node_upgrade_unsupported: {
    status: 409,
    message: 'node version does not support automatic upgrade',
  },
  node_version_unavailable: { status: 409, message: 'no bundled node version is available' },
  invalid_node_version: { status: 409, message: 'bundled node version is not valid SemVer' },
  node_platform_unknown: { status: 409, message: 'node platform is unknown' },
  node_platform_unsupported: { status: 409, message: 'node platform is not supported' },
  node_asset_missing: { status: 409, message: 'node asset for this platform is missing' },
  node_upgrade_unsafe: {
    status: 409,
    message: "the node's agent cannot be replaced safely; reinstall it with the install command",
  },
  default_group_not_deletable: { status: 409, message: 'the default group cannot be deleted' },
  traffic_daily_requires_billing: { status: 409, message: 'daily traffic requires billing mode' },
  traffic_rebuild_requires_billing: {
    status: 409,
    message: 'traffic rebuild requires billing mode',
  },
  traffic_rebuild_running: { status: 409, message: 'a traffic rebuild is already running' },
  traffic_adjustment_cycle_open: {
    status: 409,
    message: 'the billing cycle has not ended yet; record its bill once it has',
  },
  traffic_adjustment_no_data: {
    status: 409,
    message:
      'Dash measured no traffic in this direction for the cycle, so there is nothing to calibrate',
  },
  traffic_adjustment_revoked: { status: 409, message: 'the adjustment is already revoked' },
  channel_changed: { status: 409, message: 'the channel changed; start again' },
  dash_update_current: { status: 409, message: 'already on the target version' },
  builtin_theme_not_deletable: { status: 409, message: 'built-in themes cannot be deleted' },
  alert_event_closed: { status: 409, message: 'only an open alert can be acknowledged' },
  builtin_rule_readonly: { status: 409, message: 'built-in alert rules cannot be changed' },
  active_theme_not_deletable: {
    status: 409,
    message: 'apply another theme before deleting this one',
  },
  // 413, 415, 422, 429
  body_too_large: { status: 413, message: 'request body too large' },
  unsupported_media_type: { status: 415, message: 'Content-Type must be application/json' },
  invalid_metrics: { status: 422, message: 'invalid metrics' },
  invalid_static_payload: { status: 422, message: 'invalid static payload' },
  rate_limited: { status: 429, message: 'too many requests' },
  // 500
  internal_error: { status: 500, message: 'internal error' },
  theme_storage_unavailable: { status: 500, message: 'theme storage unavailable' },
  secret_collision_exhausted: { status: 500, message: 'could not generate a unique secret' },
  secret_generation_failed: { status: 500, message: 'secret generation failed' },
  config_unavailable: { status: 500, message: 'configuration unavailable' },
  auth_error: { status: 500, message: 'authentication error' },
  // 501
  not_implemented: { status: 501, message: 'method not implemented' },
  session_list_unsupported: { status: 501, message: 'session listing is not supported' },
  // 502
  dash_update_check_failed: { status: 502, message: 'update check failed' },
  release_notes_fetch_failed: { status: 502, message: 'release notes could not be fetched' },
  // 503
  db_error: { status: 503, message: 'database error' },
  redis_cache_error: { status: 503, message: 'cache synchronisation failed' },
  service_unavailable: { status: 503, message: 'service unavailable' },
  auth_unavailable: { status: 503, message: 'authentication store unavailable' },
  node_asset_error: { status: 503, message: 'node asset could not be read' },
  traffic_rebuild_unavailable: { status: 503, message: 'traffic rebuild is unavailable' },
  node_upgrade_grant_error: { status: 503, message: 'download grant could not be prepared' },
  notify_error: { status: 503, message: 'notification could not be sent' },
  login_state_error: { status: 503, message: 'login state unavailable' },
  dash_update_unavailable: { status: 503, message: 'self-update is unavailable' },
  dash_update_failed: { status: 503, message: 'update could not be started' },
  theme_unavailable: { status: 503, message: 'theme unavailable' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function statusOf(code: ErrorCode): number {
  return ERROR_CODES[code].status;
}
