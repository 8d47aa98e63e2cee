import type { SqliteStore } from '../../src/store/sqlite/open.js';
import { sqliteTestSql, type TestSql } from './test-sql.js';

/** Inserts a node row directly (for tests of areas that only read nodes). */
export async function insertNode(
  target: TestSql | SqliteStore,
  opts: {
    name?: string;
    guestVisible?: boolean;
    deleted?: boolean;
    secretHash?: string;
    now?: number;
  } = {},
): Promise<number> {
  const sql = 'raw' in target ? sqliteTestSql(target.raw) : target;
  const now = opts.now ?? 0;
  const row = await sql.get<{ id: number }>(
    `INSERT INTO nodes (name, secret_hash, secret_enc, is_guest_visible, created_at, updated_at, deleted_at)
     VALUES (?, ?, 'x', ?, ?, ?, ?) RETURNING id`,
    opts.name ?? 'node',
    opts.deleted ? null : (opts.secretHash ?? `hash-${Math.random()}`),
    opts.guestVisible ? 1 : 0,
    now,
    now,
    opts.deleted ? now : null,
  );
  return row!.id;
}
