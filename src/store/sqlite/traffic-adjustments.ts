import type BetterSqlite3 from 'better-sqlite3';
import type { TrafficAdjustmentRow, TrafficAdjustmentsRepo } from '../ports.js';
import {
  toAdjustmentRow as toRow,
  type AdjustmentDb as Db,
} from '../queries/traffic-adjustment-rows.js';

/** Calibration records on SQLite (migration 0010). */
export function sqliteTrafficAdjustmentsRepo(db: BetterSqlite3.Database): TrafficAdjustmentsRepo {
  const listAll = db.prepare(
    'SELECT * FROM traffic_adjustment WHERE node_id = ? ORDER BY created_at DESC, id DESC',
  );
  const listIface = db.prepare(
    `SELECT * FROM traffic_adjustment WHERE node_id = ? AND iface = ?
     ORDER BY created_at DESC, id DESC`,
  );
  const active = db.prepare(
    `SELECT * FROM traffic_adjustment WHERE node_id = ? AND iface = ? AND revoked_at IS NULL
     ORDER BY cycle_start DESC`,
  );
  const get = db.prepare('SELECT * FROM traffic_adjustment WHERE node_id = ? AND id = ?');
  const current = db.prepare(
    `SELECT id FROM traffic_adjustment
     WHERE node_id = ? AND iface = ? AND cycle_start = ? AND revoked_at IS NULL`,
  );
  const insert = db.prepare(
    `INSERT INTO traffic_adjustment (node_id, iface, cycle_start, cycle_end, direction,
       billed_bytes, raw_bytes, note, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const revoke = db.prepare(
    `UPDATE traffic_adjustment SET revoked_at = ?, superseded_by = ?
     WHERE node_id = ? AND id = ? AND revoked_at IS NULL`,
  );
  const link = db.prepare('UPDATE traffic_adjustment SET superseded_by = ? WHERE id = ?');
  const create = db.transaction((r: Omit<TrafficAdjustmentRow, 'id'>): number => {
    const old = current.get(r.nodeId, r.iface, r.cycleStart) as { id: number } | undefined;
    // Clear the slot of the unique "in force" index first, then point the old row at the new.
    if (old) revoke.run(r.createdAt, null, r.nodeId, old.id);
    const id = Number(
      insert.run(
        r.nodeId,
        r.iface,
        r.cycleStart,
        r.cycleEnd,
        r.direction,
        r.billedBytes,
        r.rawBytes,
        r.note,
        r.createdAt,
      ).lastInsertRowid,
    );
    if (old) link.run(id, old.id);
    return id;
  });

  return {
    async list(nodeId, iface) {
      const rows = iface === undefined ? listAll.all(nodeId) : listIface.all(nodeId, iface);
      return (rows as Db[]).map(toRow);
    },
    async active(nodeId, iface) {
      return (active.all(nodeId, iface) as Db[]).map(toRow);
    },
    async get(nodeId, id) {
      const r = get.get(nodeId, id) as Db | undefined;
      return r ? toRow(r) : undefined;
    },
    async create(row) {
      const id = create({ ...row, revokedAt: null, supersededBy: null });
      return toRow(get.get(row.nodeId, id) as Db);
    },
    async revoke(nodeId, id, at) {
      if (revoke.run(at, null, nodeId, id).changes === 0) return undefined;
      return toRow(get.get(nodeId, id) as Db);
    },
  };
}
