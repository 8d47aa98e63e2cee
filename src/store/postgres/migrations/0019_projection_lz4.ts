/**
 * The projection documents (node_live, node_current: runtime, SMART, thermal and pressure JSON)
 * compressed with lz4 instead of PostgreSQL's default pglz. 0017 keeps them compressed inside
 * the row (STORAGE MAIN), so every current report compressed about 4 KB of JSON into its
 * node_live row and the alert leader decompressed it again when it re-read the row: pglz is
 * the slow one of the two. Measured on the development machine (10,000 upserts of these rows,
 * four rounds, load average 6): 53-82 µs per row with pglz against 22-44 with lz4, reads
 * 13-19 against 9 µs, the same size (docs/postgresql.md "Per-report CPU budget").
 *
 * lz4 needs PostgreSQL 14 or later built with it (the PGDG, Debian, Ubuntu and Docker builds
 * and the managed services are): a server without it keeps pglz, which only costs CPU. Rows
 * written before keep the method they were written with until rewritten (node_live within a
 * report, node_current within 45 s).
 */
const tables = ['node_live', 'node_current'];
const columns = ['runtime_json', 'smart_json', 'thermal_json', 'pressure_json'];
const alters = tables.map(
  (t) =>
    `ALTER TABLE ${t} ${columns.map((c) => `ALTER COLUMN ${c} SET COMPRESSION lz4`).join(', ')}`,
);

export const up: readonly string[] = [
  // EXECUTE: the statements are parsed only where they can run (SET COMPRESSION is 14+).
  `DO $$
  BEGIN
    IF current_setting('server_version_num')::int >= 140000 THEN
      ${alters.map((a) => `EXECUTE '${a}';`).join('\n      ')}
    END IF;
  EXCEPTION WHEN feature_not_supported THEN
    RAISE NOTICE 'lz4 is not built into this PostgreSQL: projections stay compressed with pglz';
  END $$`,
];
