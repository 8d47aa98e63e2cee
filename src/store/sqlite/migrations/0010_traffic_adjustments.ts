/**
 * Traffic calibration (issue 14, beyond the reference): what a provider's bill said for one
 * node, interface and billing cycle. Rows are never deleted: revoking (or recording a newer
 * bill for the same cycle, which supersedes the old one) only sets `revoked_at`, so the trail
 * of what was recorded and undone stays. At most one row per cycle is active.
 */
export const up = [
  `CREATE TABLE traffic_adjustment (
    id INTEGER PRIMARY KEY,
    node_id INTEGER NOT NULL,
    iface TEXT NOT NULL,
    cycle_start INTEGER NOT NULL,
    cycle_end INTEGER NOT NULL,
    direction TEXT NOT NULL CHECK (direction IN ('in', 'out', 'total')),
    billed_bytes INTEGER NOT NULL CHECK (billed_bytes > 0),
    raw_bytes INTEGER NOT NULL,
    note TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER,
    superseded_by INTEGER
  ) STRICT`,
  `CREATE UNIQUE INDEX traffic_adjustment_active ON traffic_adjustment (node_id, iface, cycle_start)
    WHERE revoked_at IS NULL`,
  `CREATE INDEX traffic_adjustment_node ON traffic_adjustment (node_id, iface, created_at)`,
];
