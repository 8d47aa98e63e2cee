/**
 * Alerts: user rules (built-ins live in code with negative ids), explicit mount records,
 * the global settings row, events, and `alert_transitions`, the durable outbox that
 * notification delivery reads. An event and its transition row are written in one
 * transaction, so a crash never loses or duplicates a notification hand-off.
 */
export const up = [
  `CREATE TABLE alert_rules (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    enabled INTEGER NOT NULL,
    metric TEXT NOT NULL,
    operator TEXT NOT NULL,
    threshold REAL NOT NULL,
    duration_sec INTEGER NOT NULL,
    cooldown_min INTEGER NOT NULL,
    threshold_mode TEXT NOT NULL,
    threshold_offset REAL NOT NULL,
    generation INTEGER NOT NULL,
    generation_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    deleted_at INTEGER
  ) STRICT`,
  `CREATE TABLE alert_mounts (
    rule_id INTEGER NOT NULL,
    node_id INTEGER NOT NULL,
    mounted INTEGER NOT NULL,
    PRIMARY KEY (rule_id, node_id)
  ) STRICT, WITHOUT ROWID`,
  `CREATE TABLE alert_settings (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    enabled INTEGER NOT NULL,
    channel_ids TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT`,
  `CREATE TABLE alert_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    rule_id INTEGER NOT NULL,
    rule_generation INTEGER NOT NULL,
    rule_name TEXT NOT NULL,
    node_id INTEGER NOT NULL,
    metric TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('open', 'closed')),
    first_trigger_at INTEGER NOT NULL,
    last_trigger_at INTEGER NOT NULL,
    closed_at INTEGER,
    current_value REAL,
    effective_threshold REAL,
    close_reason TEXT,
    title TEXT,
    message TEXT
  ) STRICT`,
  `CREATE UNIQUE INDEX alert_events_one_open ON alert_events (node_id, rule_id) WHERE status = 'open'`,
  `CREATE INDEX alert_events_recent ON alert_events (last_trigger_at DESC, id DESC)`,
  `CREATE TABLE alert_transitions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id INTEGER NOT NULL REFERENCES alert_events (id),
    transition TEXT NOT NULL CHECK (transition IN ('opened', 'closed')),
    close_reason TEXT,
    created_at INTEGER NOT NULL,
    dispatched_at INTEGER,
    UNIQUE (event_id, transition)
  ) STRICT`,
  `CREATE INDEX alert_transitions_pending ON alert_transitions (id) WHERE dispatched_at IS NULL`,
];
