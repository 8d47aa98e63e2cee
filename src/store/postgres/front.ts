import type pg from 'pg';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { CurrentRow, FrontRepo } from '../ports.js';
import { frontRepo } from '../queries/node-front.js';

interface Row {
  node_id: number;
  received_at: number;
  reported_at: number;
  first_received_at: number;
  runtime_json: string;
  smart_json: string | null;
  thermal_json: string | null;
  pressure_json: string | null;
}

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
      const res = await pool.query<Row>(
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
      return res.rows.map((r): CurrentRow => ({
        nodeId: r.node_id,
        receivedAt: r.received_at,
        reportedAt: r.reported_at,
        firstReceivedAt: r.first_received_at,
        runtimeJson: r.runtime_json,
        smartJson: r.smart_json,
        thermalJson: r.thermal_json,
        pressureJson: r.pressure_json,
      }));
    },
  };
}
