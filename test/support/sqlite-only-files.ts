/**
 * Test files of the HTTP suite that test SQLite itself, left out of its PostgreSQL run
 * (vitest.postgres.config.ts) by name, each with the reason. Single tests of that kind inside
 * files that run on both engines use `itSqliteOnly` (sqlite-only.ts).
 */
export const SQLITE_ONLY_FILES: ReadonlyArray<{ file: string; reason: string }> = [
  {
    file: 'test/http/admin/system/storage.test.ts',
    reason:
      'seeds through the SQLite metrics engine and checks sealed history blocks and their size budget, which only SQLite has (PostgreSQL storage facts: test/store/contract/)',
  },
  {
    file: 'test/http/statistics/traffic-restart.test.ts',
    reason:
      "restarts Dash on a SQLite file and checks each interface's open 5-minute bucket on its traffic_iface row (SQLite 0018), which PostgreSQL does not keep",
  },
];
