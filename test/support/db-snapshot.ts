import { createHash } from 'node:crypto';
import type BetterSqlite3 from 'better-sqlite3';

type Database = BetterSqlite3.Database;

/** One digest per table of every row it holds, so a test can prove a request changed nothing stored. */
export function tableDigests(db: Database, skip: readonly string[] = []): Record<string, string> {
  const names = (
    db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
         ORDER BY name`,
      )
      .all() as Array<{ name: string }>
  )
    .map((r) => r.name)
    .filter((n) => !skip.includes(n));
  const out: Record<string, string> = {};
  for (const name of names) {
    const hash = createHash('sha256');
    const rows = db
      .prepare(`SELECT * FROM "${name.replace(/"/g, '""')}"`)
      .raw()
      .all();
    for (const row of rows as unknown[][]) {
      for (const cell of row) {
        if (Buffer.isBuffer(cell)) hash.update(`b:${cell.toString('hex')}`);
        else hash.update(`${typeof cell}:${String(cell)}`);
        hash.update('\u0001');
      }
      hash.update('\u0002');
    }
    out[name] = hash.digest('hex');
  }
  return out;
}

/** Names of the tables whose rows differ between two digests of tableDigests(). */
export function changedTables(
  before: Record<string, string>,
  after: Record<string, string>,
): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((n) => before[n] !== after[n]).sort();
}
