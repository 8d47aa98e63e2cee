import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { RateCountersRepo } from '../ports.js';

/**
 * Shared rate-limit counters: one upsert … RETURNING per hit, so concurrent instances add to
 * the same row (the row lock orders them) and each learns the total at once.
 */
export function rateCountersRepo(db: Kysely<Database>): RateCountersRepo {
  return {
    async hit(scope, key, windowStart) {
      const row = await db
        .insertInto('rate_limit_hits')
        .values({ scope, key, window_start: windowStart, hits: 1 })
        .onConflict((oc) =>
          oc
            .columns(['scope', 'key', 'window_start'])
            .doUpdateSet({ hits: sql<number>`rate_limit_hits.hits + 1` }),
        )
        .returning('hits')
        .executeTakeFirstOrThrow();
      return Number(row.hits);
    },
    async prune(before) {
      const res = await db
        .deleteFrom('rate_limit_hits')
        .where('window_start', '<', before)
        .executeTakeFirst();
      return Number(res.numDeletedRows);
    },
  };
}
