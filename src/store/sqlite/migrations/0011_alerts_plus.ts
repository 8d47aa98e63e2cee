/**
 * Alerts beyond the reference: a clear threshold (hysteresis) and repeat notifications per rule,
 * the repeat cap and flap suppression in the global settings, the "why it fired" detail,
 * acknowledgement, silence and flapping marks and the repeat count on events, silences, and
 * `repeat` transitions (numbered by `seq`) in the outbox. SQLite cannot change a CHECK or a
 * UNIQUE constraint in place, so `alert_transitions` is rebuilt with its rows and ids.
 */
export const up = [
  `ALTER TABLE alert_rules ADD COLUMN clear_threshold REAL`,
  `ALTER TABLE alert_rules ADD COLUMN repeat_interval_min INTEGER NOT NULL DEFAULT 0`,
  `ALTER TABLE alert_rules ADD COLUMN repeat_max INTEGER`,
  `ALTER TABLE alert_settings ADD COLUMN repeat_max INTEGER NOT NULL DEFAULT 3`,
  `ALTER TABLE alert_settings ADD COLUMN flap_threshold INTEGER NOT NULL DEFAULT 0`,
  `ALTER TABLE alert_settings ADD COLUMN flap_window_min INTEGER NOT NULL DEFAULT 60`,
  `ALTER TABLE alert_events ADD COLUMN why TEXT`,
  `ALTER TABLE alert_events ADD COLUMN acked_at INTEGER`,
  `ALTER TABLE alert_events ADD COLUMN silenced INTEGER NOT NULL DEFAULT 0`,
  `ALTER TABLE alert_events ADD COLUMN flapping INTEGER NOT NULL DEFAULT 0`,
  `ALTER TABLE alert_events ADD COLUMN repeat_count INTEGER NOT NULL DEFAULT 0`,
  `ALTER TABLE alert_events ADD COLUMN last_notified_at INTEGER`,
  `CREATE TABLE alert_silences (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    scope TEXT NOT NULL CHECK (scope IN ('node', 'group', 'rule')),
    target_id INTEGER NOT NULL,
    ends_at INTEGER NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
  ) STRICT`,
  `CREATE TABLE alert_transitions_v2 (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id INTEGER NOT NULL REFERENCES alert_events (id),
    transition TEXT NOT NULL CHECK (transition IN ('opened', 'closed', 'repeat')),
    seq INTEGER NOT NULL DEFAULT 0,
    close_reason TEXT,
    created_at INTEGER NOT NULL,
    dispatched_at INTEGER,
    UNIQUE (event_id, transition, seq)
  ) STRICT`,
  `INSERT INTO alert_transitions_v2 (id, event_id, transition, seq, close_reason, created_at, dispatched_at)
    SELECT id, event_id, transition, 0, close_reason, created_at, dispatched_at FROM alert_transitions`,
  `DROP TABLE alert_transitions`,
  `ALTER TABLE alert_transitions_v2 RENAME TO alert_transitions`,
  `CREATE INDEX alert_transitions_pending ON alert_transitions (id) WHERE dispatched_at IS NULL`,
];
