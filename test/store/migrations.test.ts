import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrateSqlite } from '../../src/store/sqlite/migrate.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations/index.js';
import { tempHome } from '../support/build-app.js';

describe('SQLite migrations', () => {
  it('apply once, in order, and are idempotent', () => {
    const db = new BetterSqlite3(':memory:');
    const first = migrateSqlite(db, 1);
    expect(first.applied).toEqual(SQLITE_MIGRATIONS.map((m) => m.id));
    expect(migrateSqlite(db, 2).applied).toEqual([]);
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type='table'").all() as Array<{
        name: string;
      }>
    ).map((r) => r.name);
    expect(tables).toEqual(
      expect.arrayContaining(['nodes', 'groups', 'node_groups', 'sessions', 'settings']),
    );
  });

  it('refuses a database migrated by a newer Dash', () => {
    const db = new BetterSqlite3(':memory:');
    migrateSqlite(db, 1);
    db.prepare('INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)').run(
      '9999_future',
      1,
    );
    expect(() => migrateSqlite(db, 2)).toThrow(/newer Dash/);
  });

  it('opens a file database in WAL mode with full sync and keeps data across reopen', async () => {
    const path = join(tempHome(), 'sub', 'dash.db');
    const a = openSqliteStore(path, 1);
    expect(a.raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(a.raw.pragma('synchronous', { simple: true })).toBe(2);
    await a.settings.setMany([['k', 'v']], 1);
    await a.close();
    const b = openSqliteStore(path, 2);
    expect(await b.settings.get('k')).toBe('v');
    await b.close();
  });

  it('0012 adds the iowait and steal columns to a populated raw history table', () => {
    const db = new BetterSqlite3(':memory:');
    const before = SQLITE_MIGRATIONS.filter((m) => m.id < '0012');
    db.exec('CREATE TABLE schema_migrations (id TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)');
    for (const m of before) {
      for (const sql of m.up) db.exec(sql);
      db.prepare('INSERT INTO schema_migrations (id, applied_at) VALUES (?, 1)').run(m.id);
    }
    db.prepare(
      'INSERT INTO metrics_raw (node_id, received_at, cpu_usage_ratio) VALUES (1, 5, 42)',
    ).run();
    expect(migrateSqlite(db, 2).applied).toContain('0012_cpu_time_history');
    expect(
      db
        .prepare('SELECT cpu_usage_ratio, cpu_iowait_ratio, cpu_steal_ratio FROM metrics_raw')
        .get(),
    ).toEqual({ cpu_usage_ratio: 42, cpu_iowait_ratio: null, cpu_steal_ratio: null });
  });

  it('ids are unique and sorted', () => {
    const ids = SQLITE_MIGRATIONS.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
});
