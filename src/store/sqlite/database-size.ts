import { statSync } from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Pages in use by the engine; for a file, plus its write-ahead log. */
export function sqliteDatabaseBytes(db: BetterSqlite3.Database, path: string): number {
  const pages = db.pragma('page_count', { simple: true }) as number;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const wal = path !== ':memory:' ? fileSize(`${path}-wal`) : 0;
  return pages * pageSize + wal;
}
