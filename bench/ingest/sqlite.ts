/** The SQLite side of the ingest benchmark: what the run's database file holds. */
import BetterSqlite3 from 'better-sqlite3';
import { statSync } from 'node:fs';
import { existingOpenLogs, sealLeftLogs } from '../../src/store/sqlite/open-logs.js';
import { sealAll } from '../../src/store/sqlite/history-blocks.js';

/** Bytes the database's pages in use and its open-block logs (reports not yet sealed) take. */
export function storedBytes(dbPath: string): { total: number; tables: Record<string, number> } {
  const db = new BetterSqlite3(dbPath, { readonly: true });
  try {
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const pages = db.pragma('page_count', { simple: true }) as number;
    const free = db.pragma('freelist_count', { simple: true }) as number;
    const logs = existingOpenLogs(dbPath).reduce((n, f) => n + statSync(f).size, 0);
    return { total: (pages - free) * pageSize + logs, tables: {} };
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

/**
 * Seals any raw rows left into blocks (all windows closed) and sums what the blocks hold: their
 * bytes, points and count. Run it on a stopped server's database: a stop has sealed the
 * open-block logs.
 */
export function sealedBytes(dbPath: string) {
  const db = new BetterSqlite3(dbPath);
  try {
    sealAll(db, Date.now() + 2 * 3_600_000);
    const r = db
      .prepare(
        'SELECT sum(length(data)) AS bytes, sum(count) AS points, count(*) AS blocks FROM metrics_blocks',
      )
      .get() as { bytes: number | null; points: number | null; blocks: number };
    return { bytes: Number(r.bytes ?? 0), points: Number(r.points ?? 0), blocks: r.blocks };
  } finally {
    db.close();
  }
}

/** Reports the database holds: raw rows and the points of the sealed blocks. */
export function storedReports(dbPath: string): number {
  const db = new BetterSqlite3(dbPath, { readonly: true });
  try {
    const raw = db.prepare('SELECT count(*) FROM metrics_raw').pluck().get() as number;
    const sealed = db
      .prepare('SELECT coalesce(sum(count), 0) FROM metrics_blocks')
      .pluck()
      .get() as number;
    return raw + sealed;
  } finally {
    db.close();
  }
}

/**
 * Seals what a stopped server left in its open-block logs, as the next `dash serve` start would
 * (a stop cut short by its 15 s limit leaves records there); returns the points sealed.
 */
export function sealLeftovers(dbPath: string): number {
  const db = new BetterSqlite3(dbPath);
  try {
    return sealLeftLogs(db, dbPath).points;
  } finally {
    db.close();
  }
}
