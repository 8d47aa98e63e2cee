import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';

/** Opening a connection: one setup for the main store, the ingest threads and `dash migrate`. */

/** The database file or its folder cannot be written (read-only file system, no permission). */
export class DatabaseNotWritableError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(
      `the database ${path} cannot be written (${reason}); Dash needs a writable DASH_HOME ` +
        `(or DASH_DATABASE_URL)`,
    );
  }
}

const NOT_WRITABLE: Record<string, string> = {
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  SQLITE_READONLY: 'read-only database',
  SQLITE_CANTOPEN: 'cannot open the file',
};

function notWritable(path: string, err: unknown): never {
  const code = (err as { code?: string } | null)?.code ?? '';
  const reason = NOT_WRITABLE[code] ?? NOT_WRITABLE[code.replace(/_[A-Z]+$/, '')];
  if (reason) throw new DatabaseNotWritableError(path, reason);
  throw err;
}

/**
 * Makes the database file (created if missing) readable by its owner only. SQLite gives the
 * -wal and -shm files it creates the database file's mode, so they follow.
 */
export function ownerOnlyDatabaseFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) {
    if (existsSync(file) && (statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  }
}

/**
 * A connection with Dash's pragmas, creating the file (mode 0600) and its folder when needed.
 * `ingest` is an ingest thread's connection: its commits write the WAL without waiting for the
 * disk (synchronous=NORMAL) because the thread syncs the WAL itself before anyone is answered
 * (workers/ingest-worker.ts), and its page cache stays small (inserts land on a different leaf
 * page per node; beyond a few MB the cache only adds memory).
 */
export function openSqliteConnection(
  path: string,
  role: 'main' | 'ingest' = 'main',
): BetterSqlite3.Database {
  let raw: BetterSqlite3.Database;
  try {
    if (path !== ':memory:') ownerOnlyDatabaseFile(path);
    raw = new BetterSqlite3(path);
    raw.pragma('journal_mode = WAL');
  } catch (err) {
    notWritable(path, err);
  }
  raw.pragma(role === 'ingest' ? 'synchronous = NORMAL' : 'synchronous = FULL');
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  raw.pragma('temp_store = MEMORY');
  if (role === 'ingest') raw.pragma('cache_size = -8000');
  return raw;
}
