import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { NodesRepo } from '../ports.js';

export function nodesRepo(db: Kysely<Database>): NodesRepo {
  return {
    async liveSecretHashes() {
      const rows = await db
        .selectFrom('nodes')
        .select(['id', 'secret_hash'])
        .where('deleted_at', 'is', null)
        .where('secret_hash', 'is not', null)
        .execute();
      return rows.map((r) => ({ id: r.id, secretHash: r.secret_hash as string }));
    },
  };
}
