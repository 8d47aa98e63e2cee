import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { GroupsRepo } from '../ports.js';

export function groupsRepo(db: Kysely<Database>): GroupsRepo {
  return {
    async list() {
      const rows = await db
        .selectFrom('groups as g')
        .leftJoin('node_groups as ng', 'ng.group_id', 'g.id')
        .leftJoin('nodes as n', (join) =>
          join.onRef('n.id', '=', 'ng.node_id').on('n.deleted_at', 'is', null),
        )
        .select((eb) => ['g.id', 'g.name', 'g.remark', eb.fn.count<number>('n.id').as('nodeCount')])
        .where('g.deleted_at', 'is', null)
        .groupBy(['g.id', 'g.name', 'g.remark'])
        .orderBy('g.id')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        remark: r.remark,
        nodeCount: Number(r.nodeCount),
      }));
    },

    async memberships() {
      const rows = await db
        .selectFrom('groups as g')
        .leftJoin('node_groups as ng', 'ng.group_id', 'g.id')
        .leftJoin('nodes as n', (join) =>
          join.onRef('n.id', '=', 'ng.node_id').on('n.deleted_at', 'is', null),
        )
        .select(['g.id', 'g.name', 'n.id as nodeId', 'n.is_guest_visible as guestVisible'])
        .where('g.deleted_at', 'is', null)
        .orderBy('g.id')
        .orderBy('n.id')
        .execute();
      const out: Array<{
        id: number;
        name: string;
        nodes: Array<{ id: number; guestVisible: boolean }>;
      }> = [];
      for (const r of rows) {
        let g = out.at(-1);
        if (!g || g.id !== r.id) out.push((g = { id: r.id, name: r.name, nodes: [] }));
        if (r.nodeId !== null) g.nodes.push({ id: r.nodeId, guestVisible: r.guestVisible === 1 });
      }
      return out;
    },

    async create(name, remark, now) {
      const row = await db
        .insertInto('groups')
        .values({ name, remark, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async update(id, changes, now) {
      const res = await db
        .updateTable('groups')
        .set({ ...changes, updated_at: now })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return res.numUpdatedRows > 0n;
    },

    async softDelete(id, now) {
      return db.transaction().execute(async (tx) => {
        const res = await tx
          .updateTable('groups')
          .set({ deleted_at: now, updated_at: now })
          .where('id', '=', id)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (res.numUpdatedRows === 0n) return false;
        await tx.deleteFrom('node_groups').where('group_id', '=', id).execute();
        return true;
      });
    },

    async ensureNamed(name, now) {
      return db.transaction().execute(async (tx) => {
        const existing = await tx
          .selectFrom('groups')
          .select(['id', 'deleted_at'])
          .where('name', '=', name)
          .orderBy((eb) => eb.case().when('deleted_at', 'is', null).then(0).else(1).end())
          .orderBy('id')
          .executeTakeFirst();
        if (existing && existing.deleted_at === null) return existing.id;
        if (existing) {
          await tx
            .updateTable('groups')
            .set({ deleted_at: null, updated_at: now })
            .where('id', '=', existing.id)
            .execute();
          return existing.id;
        }
        const row = await tx
          .insertInto('groups')
          .values({ name, remark: '', created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        return row.id;
      });
    },
  };
}
