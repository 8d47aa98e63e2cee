import type pg from 'pg';
import type { Kysely } from 'kysely';
import type { Database, NodeCurrentTable } from '../schema.js';
import type { FrontRepo } from '../ports.js';
import { currentRowOf, frontRepo } from '../queries/node-front.js';

/**
 * The front repo on PostgreSQL: a node's current projection is the newer of node_current
 * (rewritten every 30-45 s, durable) and node_live (every current report, unlogged: migration
 * 0017), so an instance re-reading a node another instance just stored gets that report.
 * A node_live row exists only beside its node_current row (both are written by the node's first
 * report); after a crash node_live is empty and node_current answers alone.
 */
export function postgresFrontRepo(db: Kysely<Database>, pool: pg.Pool): FrontRepo {
  const shared = frontRepo(db);
  return {
    liveNodes: (ids) => shared.liveNodes(ids),
    async currentRows(ids) {
      if (ids && ids.length === 0) return [];
      const newer = 'l.received_at > c.received_at';
      const pick = (col: string) => `CASE WHEN ${newer} THEN l.${col} ELSE c.${col} END`;
      const res = await pool.query<NodeCurrentTable>(
        `SELECT c.node_id, c.first_received_at,
           ${[
             'received_at',
             'reported_at',
             'runtime_json',
             'smart_json',
             'thermal_json',
             'pressure_json',
           ]
             .map((col) => `${pick(col)} AS ${col}`)
             .join(', ')}
         FROM node_current c LEFT JOIN node_live l ON l.node_id = c.node_id
         ${ids ? 'WHERE c.node_id = ANY($1::bigint[])' : ''}`,
        ids ? [ids] : [],
      );
      return res.rows.map(currentRowOf);
    },
  };
}
