/**
 * Notification channels and their delivery outbox. A channel's config (secrets included) is
 * one AES-256-GCM sealed JSON value; `revision` grows with every config or enabled change so
 * a stale edit or an outdated delivery result can be recognised. Outbox items are unique by
 * dedupe key, so fanning the same alert transition out twice inserts nothing new.
 */
export const up = [
  `CREATE TABLE notify_channels (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    config_sealed TEXT NOT NULL,
    enabled INTEGER NOT NULL,
    revision INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    last_success_at INTEGER,
    last_failure_at INTEGER,
    consecutive_failures INTEGER NOT NULL DEFAULT 0,
    last_error_code TEXT,
    last_error TEXT
  ) STRICT`,
  `CREATE TABLE notify_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    channel_id INTEGER NOT NULL,
    dedupe_key TEXT NOT NULL UNIQUE,
    payload TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN
      ('pending', 'sending', 'retry', 'blocked', 'paused', 'sent', 'discarded')),
    attempts INTEGER NOT NULL DEFAULT 0,
    probes INTEGER NOT NULL DEFAULT 0,
    next_at INTEGER NOT NULL,
    lease_until INTEGER,
    created_at INTEGER NOT NULL,
    finished_at INTEGER,
    last_error_code TEXT
  ) STRICT`,
  `CREATE INDEX notify_outbox_due ON notify_outbox (next_at, id)
    WHERE state IN ('pending', 'sending', 'retry', 'blocked')`,
  `CREATE INDEX notify_outbox_channel ON notify_outbox (channel_id, state)`,
];
