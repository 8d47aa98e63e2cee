import type { SqliteStore } from '../../src/store/sqlite/open.js';

/** Inserts a node row directly (for tests of areas that only read nodes). */
export function insertNode(
  store: SqliteStore,
  opts: {
    name?: string;
    guestVisible?: boolean;
    deleted?: boolean;
    secretHash?: string;
    now?: number;
  } = {},
): number {
  const now = opts.now ?? 0;
  const r = store.raw
    .prepare(
      `INSERT INTO nodes (name, secret_hash, secret_enc, is_guest_visible, created_at, updated_at, deleted_at)
       VALUES (?, ?, 'x', ?, ?, ?, ?)`,
    )
    .run(
      opts.name ?? 'node',
      opts.deleted ? null : (opts.secretHash ?? `hash-${Math.random()}`),
      opts.guestVisible ? 1 : 0,
      now,
      now,
      opts.deleted ? now : null,
    );
  return Number(r.lastInsertRowid);
}
