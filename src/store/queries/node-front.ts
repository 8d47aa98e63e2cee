import type { Kysely } from 'kysely';
import type { Database, NodeCurrentTable } from '../schema.js';
import type { CurrentRow, FrontRepo, NodeFrontRow } from '../ports.js';

/** Node fields and current projections the front view is built from. */
export function frontRepo(db: Kysely<Database>): FrontRepo {
  return {
    async liveNodes(ids) {
      if (ids && ids.length === 0) return [];
      let q = db
        .selectFrom('nodes')
        .select([
          'id',
          'name',
          'tags',
          'display_order',
          'is_guest_visible',
          'os',
          'platform',
          'platform_version',
          'kernel_version',
          'arch',
          'static_json',
        ])
        .where('deleted_at', 'is', null);
      if (ids) q = q.where('id', 'in', ids);
      const rows = await q.execute();
      return rows.map((r): NodeFrontRow => ({
        id: r.id,
        name: r.name,
        tags: r.tags,
        displayOrder: r.display_order,
        guestVisible: r.is_guest_visible !== 0,
        os: r.os,
        platform: r.platform,
        platformVersion: r.platform_version,
        kernelVersion: r.kernel_version,
        arch: r.arch,
        staticJson: r.static_json,
      }));
    },

    async currentRows(ids) {
      if (ids && ids.length === 0) return [];
      let q = db.selectFrom('node_current').selectAll();
      if (ids) q = q.where('node_id', 'in', ids);
      const rows = await q.execute();
      return rows.map(currentRowOf);
    },
  };
}

/** A `node_current` row (or one shaped like it) as the front state takes it. */
export function currentRowOf(r: NodeCurrentTable): CurrentRow {
  return {
    nodeId: r.node_id,
    receivedAt: r.received_at,
    reportedAt: r.reported_at,
    firstReceivedAt: r.first_received_at,
    runtimeJson: r.runtime_json,
    smartJson: r.smart_json,
    thermalJson: r.thermal_json,
    pressureJson: r.pressure_json,
  };
}
