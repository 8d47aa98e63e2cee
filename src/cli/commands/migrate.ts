import { loadConfig } from '../../config/load.js';
import { openSqliteConnection } from '../../store/sqlite/connection.js';
import { migrateSqlite } from '../../store/sqlite/migrate.js';
import { openStore } from '../../store/open.js';
import { systemClock } from '../../platform/clock.js';

/** `dash migrate`: bring the configured database schema up to date, then exit. */
export async function migrateCommand(): Promise<void> {
  const config = loadConfig();
  if (config.database.kind !== 'sqlite') {
    openStore(config.database, systemClock.now());
    return;
  }
  const db = openSqliteConnection(config.database.path);
  try {
    const result = migrateSqlite(db, systemClock.now());
    process.stdout.write(
      result.applied.length > 0
        ? `applied ${result.applied.length} migration(s): ${result.applied.join(', ')}\n`
        : `database is up to date (${result.current ?? 'empty'})\n`,
    );
  } finally {
    db.close();
  }
}
