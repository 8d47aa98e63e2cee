import type BetterSqlite3 from 'better-sqlite3';

/**
 * Node ids present in a table keyed by node first, found by seeking past each id in turn
 * (a loose index scan: one B-tree seek per node instead of reading every row).
 */
export function nodeIdsStatement(
  db: BetterSqlite3.Database,
  table: 'metrics_raw' | 'metrics_blocks' = 'metrics_raw',
) {
  const next = db
    .prepare(`SELECT node_id FROM ${table} WHERE node_id > ? ORDER BY node_id LIMIT 1`)
    .pluck();
  return function* nodeIds(): Generator<number> {
    let last = Number.MIN_SAFE_INTEGER;
    for (;;) {
      const id = next.get(last) as number | undefined;
      if (id === undefined) return;
      yield id;
      last = id;
    }
  };
}
