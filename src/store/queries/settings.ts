import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { SettingsRepo } from '../ports.js';

export function settingsRepo(db: Kysely<Database>): SettingsRepo {
  return {
    async get(key) {
      const row = await db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', key)
        .executeTakeFirst();
      return row?.value;
    },
    async getMany(keys) {
      if (keys.length === 0) return new Map();
      const rows = await db
        .selectFrom('settings')
        .select(['key', 'value'])
        .where('key', 'in', keys)
        .execute();
      return new Map(rows.map((r) => [r.key, r.value]));
    },
    async setMany(entries, now) {
      if (entries.length === 0) return;
      await db.transaction().execute(async (tx) => {
        for (const [key, value] of entries) {
          await tx
            .insertInto('settings')
            .values({ key, value, updated_at: now })
            .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: now }))
            .execute();
        }
      });
    },
    async claim(key, value, now) {
      await db
        .insertInto('settings')
        .values({ key, value, updated_at: now })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      const row = await db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', key)
        .executeTakeFirstOrThrow();
      return row.value;
    },
  };
}
