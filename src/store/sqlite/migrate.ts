import type BetterSqlite3 from 'better-sqlite3';
import { SQLITE_MIGRATIONS } from './migrations/index.js';

export interface MigrationResult {
  applied: string[];
  current: string | undefined;
}

/** Applies pending migrations, each in its own transaction; safe to run on every start. */
export function migrateSqlite(db: BetterSqlite3.Database, now: number): MigrationResult {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    id TEXT PRIMARY KEY,
    applied_at INTEGER NOT NULL
  ) STRICT`);
  const done = new Set(
    (db.prepare('SELECT id FROM schema_migrations').all() as Array<{ id: string }>).map(
      (r) => r.id,
    ),
  );
  const known = new Set(SQLITE_MIGRATIONS.map((m) => m.id));
  const unknown = [...done].filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new Error(
      `database was migrated by a newer Dash (unknown migrations: ${unknown.join(', ')}); upgrade Dash`,
    );
  }
  const applied: string[] = [];
  const record = db.prepare('INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)');
  for (const m of SQLITE_MIGRATIONS) {
    if (done.has(m.id)) continue;
    db.transaction(() => {
      for (const stmt of m.up) db.exec(stmt);
      m.run?.(db, now);
      record.run(m.id, now);
    })();
    applied.push(m.id);
  }
  return { applied, current: SQLITE_MIGRATIONS.at(-1)?.id };
}
