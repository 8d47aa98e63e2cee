import type BetterSqlite3 from 'better-sqlite3';

/** Persistent watermarks of the metrics jobs (table metrics_jobs). */
export function watermarks(db: BetterSqlite3.Database) {
  const get = db.prepare('SELECT watermark FROM metrics_jobs WHERE name = ?').pluck();
  const set = db.prepare(
    `INSERT INTO metrics_jobs (name, watermark) VALUES (?, ?)
     ON CONFLICT (name) DO UPDATE SET watermark = excluded.watermark`,
  );
  return {
    get: (name: string) => get.get(name) as number | undefined,
    set: (name: string, value: number) => void set.run(name, value),
  };
}

export const WATERMARK_15M = 'rollup_15m';
export const WATERMARK_1H = 'rollup_1h';
export const BUCKET_15M = 15 * 60_000;
export const BUCKET_1H = 60 * 60_000;
