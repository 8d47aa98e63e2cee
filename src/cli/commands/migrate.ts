import { loadConfig } from '../../config/load.js';
import { openSqliteConnection } from '../../store/sqlite/connection.js';
import { migrateSqlite, type MigrationResult } from '../../store/sqlite/migrate.js';
import { connectPostgres } from '../../store/postgres/open.js';
import { migratePostgres } from '../../store/postgres/migrate.js';
import { systemClock } from '../../platform/clock.js';

/** `dash migrate`: bring the configured database schema up to date, then exit. */
export async function migrateCommand(): Promise<void> {
  const config = loadConfig();
  const result = await migrateDatabase(config.database);
  process.stdout.write(
    result.applied.length > 0
      ? `applied ${result.applied.length} migration(s): ${result.applied.join(', ')}\n`
      : `database is up to date (${result.current ?? 'empty'})\n`,
  );
}

async function migrateDatabase(
  database: ReturnType<typeof loadConfig>['database'],
): Promise<MigrationResult> {
  if (database.kind === 'postgres') {
    const pool = await connectPostgres(database.url, { max: 1 });
    try {
      return await migratePostgres(pool, systemClock.now());
    } finally {
      await pool.end();
    }
  }
  const db = openSqliteConnection(database.path);
  try {
    return migrateSqlite(db, systemClock.now());
  } finally {
    db.close();
  }
}
