import type { Kysely, Selectable } from 'kysely';
import type { Database, SessionsTable } from '../schema.js';
import type { SessionRecord, SessionsRepo } from '../ports.js';

const toRecord = (r: Selectable<SessionsTable>): SessionRecord => ({
  id: r.id,
  refreshHash: r.refresh_hash,
  csrfHash: r.csrf_hash,
  sessionOnly: r.session_only === 1,
  userVersion: r.user_version,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});

export function sessionsRepo(db: Kysely<Database>): SessionsRepo {
  return {
    async insert(s) {
      await db
        .insertInto('sessions')
        .values({
          id: s.id,
          refresh_hash: s.refreshHash,
          csrf_hash: s.csrfHash,
          session_only: s.sessionOnly ? 1 : 0,
          user_version: s.userVersion,
          created_at: s.createdAt,
          expires_at: s.expiresAt,
        })
        .execute();
    },
    async live(now) {
      const rows = await db
        .selectFrom('sessions')
        .selectAll()
        .where('expires_at', '>', now)
        .execute();
      return rows.map(toRecord);
    },
    async rotate(id, refreshHash, csrfHash, expiresAt) {
      await db
        .updateTable('sessions')
        .set({ refresh_hash: refreshHash, csrf_hash: csrfHash, expires_at: expiresAt })
        .where('id', '=', id)
        .execute();
    },
    async get(id, now) {
      const row = await db
        .selectFrom('sessions')
        .selectAll()
        .where('id', '=', id)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row ? toRecord(row) : undefined;
    },
    async delete(id) {
      await db.deleteFrom('sessions').where('id', '=', id).execute();
    },
    async deleteAll() {
      await db.deleteFrom('sessions').execute();
    },
    async deleteExpired(now) {
      const r = await db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
