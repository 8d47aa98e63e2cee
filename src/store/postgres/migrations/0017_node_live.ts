/**
 * The live current projection of instances sharing one database (issue 23): `node_live` holds
 * each node's latest current report (the node_current columns the front view is rendered
 * from), rewritten with every current report so another instance told of it by NOTIFY reads
 * it within the 1 s freshness target; `node_current` keeps SQLite's 30-45 s rewrite cadence and
 * stays the durable projection.
 *
 * UNLOGGED: these rewrites (one per report, thousands a second) write no WAL, and their pages
 * are not flushed by checkpoints. After a PostgreSQL crash (or on a promoted standby) the table
 * starts empty and readers fall back to node_current, at most 45 s older, until the next
 * report of each node (docs/postgresql.md "Between instances").
 *
 * Storage of the rewritten rows, here and for node_current and metric_devices: a fill factor
 * leaves room on each page for a row's next version, so a rewrite is a HOT update (no index
 * entry) and the dead versions are pruned on the page without waiting for vacuum. The JSON
 * columns are STORAGE MAIN: compressed inside the row (a 4 KB projection becomes about 1.5 KB)
 * instead of moved out to the TOAST table, where every rewrite inserted new TOAST rows and
 * index entries (measured: 1,262 bytes of growth per report with the default, none with MAIN).
 * Both apply to rows written from now on.
 *
 * No SQLite twin table: one SQLite process keeps its live projection in memory; the id exists
 * on both engines so they name the same schema state (as 0013 on PostgreSQL).
 */
export const up: readonly string[] = [
  `CREATE UNLOGGED TABLE node_live (
    node_id bigint PRIMARY KEY,
    received_at bigint NOT NULL,
    reported_at bigint NOT NULL,
    runtime_json text NOT NULL,
    smart_json text,
    thermal_json text,
    pressure_json text
  ) WITH (fillfactor = 50)`,
  ...['node_live', 'node_current'].flatMap((table) =>
    ['runtime_json', 'smart_json', 'thermal_json', 'pressure_json'].map(
      (col) => `ALTER TABLE ${table} ALTER COLUMN ${col} SET STORAGE MAIN`,
    ),
  ),
  'ALTER TABLE node_current SET (fillfactor = 50)',
  'ALTER TABLE metric_devices SET (fillfactor = 80)',
];
