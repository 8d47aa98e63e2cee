/**
 * Test files of the HTTP suite that test SQLite itself, left out of its PostgreSQL run
 * (vitest.postgres.config.ts) by name, each with the reason. Single tests of that kind inside
 * files that run on both engines use `itSqliteOnly` (sqlite-only.ts).
 */
export const SQLITE_ONLY_FILES: ReadonlyArray<{ file: string; reason: string }> = [];
