import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { NodeStaticRepo } from '../ports.js';

/** Names a node gets at creation until its first static report names it (reference §2.2). */
export const PLACEHOLDER_NAMES = ['', 'Untitled'] as const;

/** Writes of POST /api/node/static; node CRUD lives in queries/nodes.ts. */
export function nodeStaticRepo(db: Kysely<Database>): NodeStaticRepo {
  return {
    async staticJson(nodeId) {
      const row = await db
        .selectFrom('nodes')
        .select('static_json')
        .where('id', '=', nodeId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return row ? row.static_json : undefined;
    },

    async saveStatic(nodeId, u, now) {
      const name = [...u.hostname].slice(0, 64).join('');
      const res = await db
        .updateTable('nodes')
        .set({
          hostname: u.hostname,
          os: u.os,
          platform: u.platform,
          platform_version: u.platformVersion,
          kernel_version: u.kernelVersion,
          arch: u.arch,
          agent_version: u.agentVersion,
          interval_sec: u.intervalSec,
          static_json: u.staticJson,
          updated_at: now,
          name: sql<string>`CASE WHEN trim(name) IN (${sql.join(PLACEHOLDER_NAMES)}) THEN ${name} ELSE name END`,
          ...(u.ip !== null ? { ip: u.ip } : {}),
        })
        .where('id', '=', nodeId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },
  };
}
