/** Foundation schema: settings, groups, nodes, memberships, admin sessions. */
export const up = [
  `CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT`,
  `CREATE TABLE groups (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    remark TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    deleted_at INTEGER
  ) STRICT`,
  `CREATE TABLE nodes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    secret_hash TEXT,
    secret_enc TEXT NOT NULL,
    hostname TEXT NOT NULL DEFAULT 'Untitled',
    ip TEXT,
    is_guest_visible INTEGER NOT NULL DEFAULT 0,
    traffic_p95_enabled INTEGER NOT NULL DEFAULT 0,
    traffic_cycle_mode TEXT NOT NULL DEFAULT 'calendar_month',
    traffic_billing_start_day INTEGER NOT NULL DEFAULT 1,
    traffic_billing_anchor_date TEXT NOT NULL DEFAULT '',
    traffic_billing_timezone TEXT NOT NULL DEFAULT '',
    traffic_direction_mode TEXT NOT NULL DEFAULT 'default',
    display_order INTEGER NOT NULL DEFAULT 0,
    tags TEXT NOT NULL DEFAULT '[]',
    agent_version TEXT NOT NULL DEFAULT 'unknown',
    os TEXT NOT NULL DEFAULT '',
    platform TEXT NOT NULL DEFAULT '',
    platform_version TEXT NOT NULL DEFAULT '',
    kernel_version TEXT NOT NULL DEFAULT '',
    arch TEXT NOT NULL DEFAULT '',
    interval_sec INTEGER NOT NULL DEFAULT 3,
    static_json TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    deleted_at INTEGER
  ) STRICT`,
  `CREATE UNIQUE INDEX nodes_secret_hash_live ON nodes (secret_hash) WHERE deleted_at IS NULL`,
  `CREATE TABLE node_groups (
    node_id INTEGER NOT NULL REFERENCES nodes (id),
    group_id INTEGER NOT NULL REFERENCES groups (id),
    PRIMARY KEY (node_id, group_id)
  ) STRICT, WITHOUT ROWID`,
  `CREATE INDEX node_groups_group ON node_groups (group_id)`,
  `CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    refresh_hash TEXT NOT NULL,
    csrf_hash TEXT NOT NULL,
    session_only INTEGER NOT NULL,
    user_version INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  ) STRICT`,
  `CREATE INDEX sessions_expires ON sessions (expires_at)`,
];
