import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SQLITE_MIGRATIONS } from '../../../src/store/sqlite/migrations/index.js';
import { POSTGRES_MIGRATIONS } from '../../../src/store/postgres/migrations/index.js';
import { migratePostgres } from '../../../src/store/postgres/migrate.js';
import { createPool } from '../../../src/store/postgres/pool.js';
import {
  POSTGRES_ONLY_TABLES,
  SQLITE_ONLY_COLUMNS,
  SQLITE_ONLY_TABLES,
} from '../../../src/store/postgres/copy-from-sqlite.js';
import {
  dropPartitionsBefore,
  ensurePartitions,
  listPartitions,
  PARTITIONED_TABLES,
} from '../../../src/store/postgres/partitions.js';
import { freshSchema, postgresUnavailable, warnPostgresSkipped } from '../../support/postgres.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 24, 12);

describe('PostgreSQL migration ids', () => {
  it('are SQLite ids, in the same order', () => {
    const sqliteIds = SQLITE_MIGRATIONS.map((m) => m.id);
    const pgIds = POSTGRES_MIGRATIONS.map((m) => m.id);
    expect(pgIds.every((id) => sqliteIds.includes(id))).toBe(true);
    expect(sqliteIds.filter((id) => pgIds.includes(id))).toEqual(pgIds);
    // Every table of the foundation is there from the start.
    expect(pgIds.slice(0, 3)).toEqual(['0001_init', '0002_metrics', '0004_uptime']);
  });
});

const unavailable = await postgresUnavailable();
if (unavailable !== undefined) warnPostgresSkipped(unavailable);

describe.skipIf(unavailable !== undefined)('PostgreSQL migrations', () => {
  const drops: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
  });

  async function fresh() {
    const f = await freshSchema();
    drops.push(f.drop);
    const pool = createPool(f.url, { max: 2 });
    return { pool, schema: f.schema };
  }

  it('apply once, build the same tables and columns as SQLite, and refuse a newer database', async () => {
    const { pool, schema } = await fresh();
    try {
      const first = await migratePostgres(pool, NOW);
      expect(first.applied).toEqual(POSTGRES_MIGRATIONS.map((m) => m.id));
      expect((await migratePostgres(pool, NOW + 1)).applied).toEqual([]);

      const pgColumns = await pool.query<{ table_name: string; column_name: string }>(
        `SELECT c.table_name, c.column_name FROM information_schema.columns c
         JOIN pg_class k ON k.relname = c.table_name
         JOIN pg_namespace n ON n.oid = k.relnamespace AND n.nspname = c.table_schema
         WHERE c.table_schema = $1 AND NOT k.relispartition`,
        [schema],
      );
      const pg = new Map<string, string[]>();
      for (const r of pgColumns.rows)
        pg.set(r.table_name, [...(pg.get(r.table_name) ?? []), r.column_name]);

      // SQLite with exactly the migrations PostgreSQL has, less the tables only SQLite keeps
      // (history blocks: PostgreSQL holds every point as a row of metrics_raw) and those only
      // PostgreSQL keeps (the live projection shared between instances).
      const lite = new BetterSqlite3(':memory:');
      const wanted = new Set(POSTGRES_MIGRATIONS.map((m) => m.id));
      for (const m of SQLITE_MIGRATIONS) if (wanted.has(m.id)) for (const s of m.up) lite.exec(s);
      const liteTables = (
        lite
          .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
          )
          .all() as Array<{ name: string }>
      )
        .map((r) => r.name)
        .filter((t) => !SQLITE_ONLY_TABLES.includes(t));
      expect(SQLITE_ONLY_TABLES.filter((t) => pg.has(t))).toEqual([]);
      expect(POSTGRES_ONLY_TABLES.filter((t) => !pg.has(t))).toEqual([]);
      expect(
        [...pg.keys()]
          .filter((t) => t !== 'schema_migrations' && !POSTGRES_ONLY_TABLES.includes(t))
          .sort(),
      ).toEqual(liteTables.sort());
      for (const table of liteTables) {
        // Less the columns only SQLite keeps (open traffic buckets, copied as facts).
        const cols = (lite.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>)
          .map((c) => c.name)
          .filter((c) => !SQLITE_ONLY_COLUMNS[table]?.includes(c));
        expect([...(pg.get(table) ?? [])].sort(), table).toEqual(cols.sort());
      }
      lite.close();

      await pool.query("INSERT INTO schema_migrations (id, applied_at) VALUES ('9999_future', 1)");
      await expect(migratePostgres(pool, NOW + 2)).rejects.toThrow(/newer Dash/);
    } finally {
      await pool.end();
    }
  });

  it('types: flags read as 1/0, 64-bit integers as numbers, blobs as bytes', async () => {
    const { pool } = await fresh();
    try {
      await migratePostgres(pool, NOW);
      await pool.query(
        `INSERT INTO sessions (id, refresh_hash, csrf_hash, session_only, user_version, created_at, expires_at)
         VALUES ('s', 'r', 'c', $1, 1, $2, $3)`,
        [1, NOW, 2 ** 52],
      );
      const row = (await pool.query<object>('SELECT session_only, expires_at FROM sessions'))
        .rows[0];
      expect(row).toEqual({ session_only: 1, expires_at: 2 ** 52 });
      await pool.query('INSERT INTO metrics_15m (id, data) VALUES ($1, $2)', [
        7 * 2 ** 24 + 5,
        Buffer.from([1, 2, 3]),
      ]);
      const blob = (
        await pool.query<{ id: number; data: Buffer }>('SELECT id, data FROM metrics_15m')
      ).rows[0];
      expect(blob?.id).toBe(7 * 2 ** 24 + 5);
      expect([...(blob?.data ?? [])]).toEqual([1, 2, 3]);
    } finally {
      await pool.end();
    }
  });

  it('partitions history by UTC day ahead of time and drops whole days for retention', async () => {
    const { pool } = await fresh();
    try {
      await migratePostgres(pool, NOW);
      const today = Date.UTC(2026, 10, 24);
      for (const { table } of PARTITIONED_TABLES) {
        expect((await listPartitions(pool, table)).map((p) => p.day)).toEqual([
          today,
          today + DAY,
          today + 2 * DAY,
          today + 3 * DAY,
        ]);
      }
      // A row without a partition is refused, not stored somewhere else.
      await expect(
        pool.query('INSERT INTO metrics_raw (node_id, received_at) VALUES (1, $1)', [
          NOW - 5 * DAY,
        ]),
      ).rejects.toThrow(/no partition/);
      expect(await ensurePartitions(pool, NOW - 5 * DAY, NOW - 4 * DAY)).toBe(
        2 * PARTITIONED_TABLES.length,
      );
      await pool.query(
        'INSERT INTO metrics_raw (node_id, received_at) VALUES (1, $1), (1, $2), (1, $3)',
        [NOW - 5 * DAY, NOW - 4 * DAY, NOW],
      );
      const dropped = await dropPartitionsBefore(pool, 'metrics_raw', NOW - 4 * DAY);
      expect(dropped).toEqual(['metrics_raw_p20261119']);
      const left = await pool.query<{ received_at: number }>(
        'SELECT received_at FROM metrics_raw ORDER BY received_at',
      );
      expect(left.rows.map((r) => r.received_at)).toEqual([NOW - 4 * DAY, NOW]);
      // Other tables keep theirs.
      expect((await listPartitions(pool, 'traffic_5m'))[0]?.day).toBe(today - 5 * DAY);
    } finally {
      await pool.end();
    }
  });
});
