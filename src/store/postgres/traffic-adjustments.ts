import type pg from 'pg';
import type { TrafficAdjustmentsRepo } from '../ports.js';
import {
  toAdjustmentRow as toRow,
  type AdjustmentDb as Db,
} from '../queries/traffic-adjustment-rows.js';
import { inTransaction } from './pool.js';

const REVOKE = `UPDATE traffic_adjustment SET revoked_at = $1, superseded_by = NULL
  WHERE node_id = $2 AND id = $3 AND revoked_at IS NULL RETURNING *`;

/** Calibration records on PostgreSQL (migration 0010), as on SQLite. */
export function postgresTrafficAdjustmentsRepo(pool: pg.Pool): TrafficAdjustmentsRepo {
  return {
    async list(nodeId, iface) {
      const res =
        iface === undefined
          ? await pool.query<Db>(
              'SELECT * FROM traffic_adjustment WHERE node_id = $1 ORDER BY created_at DESC, id DESC',
              [nodeId],
            )
          : await pool.query<Db>(
              `SELECT * FROM traffic_adjustment WHERE node_id = $1 AND iface = $2
               ORDER BY created_at DESC, id DESC`,
              [nodeId, iface],
            );
      return res.rows.map(toRow);
    },
    async active(nodeId, iface) {
      const res = await pool.query<Db>(
        `SELECT * FROM traffic_adjustment WHERE node_id = $1 AND iface = $2 AND revoked_at IS NULL
         ORDER BY cycle_start DESC`,
        [nodeId, iface],
      );
      return res.rows.map(toRow);
    },
    async get(nodeId, id) {
      const res = await pool.query<Db>(
        'SELECT * FROM traffic_adjustment WHERE node_id = $1 AND id = $2',
        [nodeId, id],
      );
      const r = res.rows[0];
      return r ? toRow(r) : undefined;
    },
    async create(r) {
      return inTransaction(pool, async (c) => {
        // The record in force for this cycle (locked, so a concurrent edit waits for this one).
        const old = await c.query<{ id: number }>(
          `SELECT id FROM traffic_adjustment
           WHERE node_id = $1 AND iface = $2 AND cycle_start = $3 AND revoked_at IS NULL
           FOR UPDATE`,
          [r.nodeId, r.iface, r.cycleStart],
        );
        const oldId = old.rows[0]?.id;
        // Clear the slot of the unique "in force" index first, then point the old row at the new.
        if (oldId !== undefined) await c.query(REVOKE, [r.createdAt, r.nodeId, oldId]);
        const ins = await c.query<Db>(
          `INSERT INTO traffic_adjustment (node_id, iface, cycle_start, cycle_end, direction,
             billed_bytes, raw_bytes, note, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
           RETURNING *`,
          [
            r.nodeId,
            r.iface,
            r.cycleStart,
            r.cycleEnd,
            r.direction,
            r.billedBytes,
            r.rawBytes,
            r.note,
            r.createdAt,
          ],
        );
        const row = ins.rows[0]!;
        if (oldId !== undefined) {
          await c.query('UPDATE traffic_adjustment SET superseded_by = $1 WHERE id = $2', [
            row.id,
            oldId,
          ]);
        }
        return toRow(row);
      });
    },
    async revoke(nodeId, id, at) {
      const res = await pool.query<Db>(REVOKE, [at, nodeId, id]);
      const r = res.rows[0];
      return r ? toRow(r) : undefined;
    },
  };
}
