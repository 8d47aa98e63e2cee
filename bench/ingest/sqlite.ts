/** The SQLite side of the ingest benchmark: what the run's database file holds. */
import BetterSqlite3 from 'better-sqlite3';
import { sealAll } from '../../src/store/sqlite/history-blocks.js';

export function storedBytes(dbPath: string): { total: number; tables: Record<string, number> } {
  const db = new BetterSqlite3(dbPath, { readonly: true });
  try {
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const pages = db.pragma('page_count', { simple: true }) as number;
    const free = db.pragma('freelist_count', { simple: true }) as number;
    return { total: (pages - free) * pageSize, tables: {} };
  } finally {
    db.close();
  }
}

export function tableBytes(dbPath: string): Record<string, number> {
  const db = new BetterSqlite3(dbPath, { readonly: true });
  try {
    const rows = db
      .prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC')
      .all() as Array<{ name: string; bytes: number }>;
    return Object.fromEntries(rows.map((r) => [r.name, r.bytes]));
  } finally {
    db.close();
  }
}

/** Seals every raw row into blocks (all windows closed) and sums the block bytes. */
export function sealedBytes(dbPath: string) {
  const db = new BetterSqlite3(dbPath);
  try {
    const t0 = performance.now();
    const r = sealAll(db, Date.now() + 2 * 3_600_000);
    const ms = performance.now() - t0;
    const bytes = db.prepare('SELECT sum(length(data)) AS b FROM metrics_blocks').pluck().get();
    return { bytes: Number(bytes ?? 0), points: r.points, blocks: r.blocks, ms };
  } finally {
    db.close();
  }
}

export function rawRows(dbPath: string): number {
  const db = new BetterSqlite3(dbPath, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM metrics_raw').get() as { n: number }).n;
  } finally {
    db.close();
  }
}
