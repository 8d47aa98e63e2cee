import type { Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { Database, NodesTable } from '../schema.js';
import type { NodeChanges, NodeRow, NodesRepo } from '../ports.js';
import { isUniqueViolation } from './unique-violation.js';

type Db = Kysely<Database> | Transaction<Database>;

const NODE_COLUMNS = [
  'id',
  'name',
  'secret_enc',
  'hostname',
  'ip',
  'is_guest_visible',
  'traffic_p95_enabled',
  'traffic_cycle_mode',
  'traffic_billing_start_day',
  'traffic_billing_anchor_date',
  'traffic_billing_timezone',
  'traffic_direction_mode',
  'display_order',
  'tags',
  'agent_version',
  'os',
  'platform',
  'arch',
] as const;

type NodeSelect = Pick<Selectable<NodesTable>, (typeof NODE_COLUMNS)[number]>;

function toRow(r: NodeSelect, groupIds: number[]): NodeRow {
  return {
    id: r.id,
    name: r.name,
    secretEnc: r.secret_enc,
    hostname: r.hostname,
    ip: r.ip,
    isGuestVisible: r.is_guest_visible === 1,
    trafficP95Enabled: r.traffic_p95_enabled === 1,
    trafficCycleMode: r.traffic_cycle_mode,
    trafficBillingStartDay: r.traffic_billing_start_day,
    trafficBillingAnchorDate: r.traffic_billing_anchor_date,
    trafficBillingTimezone: r.traffic_billing_timezone,
    trafficDirectionMode: r.traffic_direction_mode,
    displayOrder: r.display_order,
    tagsJson: r.tags,
    agentVersion: r.agent_version,
    os: r.os,
    platform: r.platform,
    arch: r.arch,
    groupIds,
  };
}

async function memberships(db: Db, nodeIds?: readonly number[]): Promise<Map<number, number[]>> {
  let q = db.selectFrom('node_groups').select(['node_id', 'group_id']).orderBy('group_id');
  if (nodeIds) q = q.where('node_id', 'in', nodeIds);
  const out = new Map<number, number[]>();
  for (const r of await q.execute()) {
    const list = out.get(r.node_id);
    if (list) list.push(r.group_id);
    else out.set(r.node_id, [r.group_id]);
  }
  return out;
}

function columnChanges(c: NodeChanges, now: number): Updateable<NodesTable> {
  const set: Updateable<NodesTable> = { updated_at: now };
  if (c.name !== undefined) set.name = c.name;
  if (c.isGuestVisible !== undefined) set.is_guest_visible = c.isGuestVisible ? 1 : 0;
  if (c.trafficP95Enabled !== undefined) set.traffic_p95_enabled = c.trafficP95Enabled ? 1 : 0;
  if (c.trafficCycleMode !== undefined) set.traffic_cycle_mode = c.trafficCycleMode;
  if (c.trafficBillingStartDay !== undefined) {
    set.traffic_billing_start_day = c.trafficBillingStartDay;
  }
  if (c.trafficBillingAnchorDate !== undefined) {
    set.traffic_billing_anchor_date = c.trafficBillingAnchorDate;
  }
  if (c.trafficBillingTimezone !== undefined) {
    set.traffic_billing_timezone = c.trafficBillingTimezone;
  }
  if (c.trafficDirectionMode !== undefined) set.traffic_direction_mode = c.trafficDirectionMode;
  if (c.displayOrder !== undefined) set.display_order = c.displayOrder;
  if (c.tagsJson !== undefined) set.tags = c.tagsJson;
  if (c.secret !== undefined) {
    set.secret_hash = c.secret.hash;
    set.secret_enc = c.secret.enc;
  }
  return set;
}

async function liveIds(db: Db, table: 'nodes' | 'groups', ids: readonly number[]) {
  if (ids.length === 0) return new Set<number>();
  const rows = await db
    .selectFrom(table)
    .select('id')
    .where('deleted_at', 'is', null)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Runs fn in one transaction; every early return happens before the first write. */
function inTx<T>(db: Kysely<Database>, fn: (tx: Transaction<Database>) => Promise<T>) {
  return db.transaction().execute(fn);
}

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

    async list() {
      const rows = await db
        .selectFrom('nodes')
        .select(NODE_COLUMNS)
        .where('deleted_at', 'is', null)
        .orderBy('display_order', 'desc')
        .orderBy('id')
        .execute();
      const groups = await memberships(db);
      return rows.map((r) => toRow(r, groups.get(r.id) ?? []));
    },

    async get(id) {
      const row = await db
        .selectFrom('nodes')
        .select(NODE_COLUMNS)
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!row) return undefined;
      return toRow(row, (await memberships(db, [id])).get(id) ?? []);
    },

    async create(node, now) {
      try {
        const id = await db.transaction().execute(async (tx) => {
          const top = await tx
            .selectFrom('nodes')
            .select((eb) => eb.fn.max('display_order').as('top'))
            .where('deleted_at', 'is', null)
            .executeTakeFirst();
          const inserted = await tx
            .insertInto('nodes')
            .values({
              name: node.name,
              hostname: node.name,
              secret_hash: node.secretHash,
              secret_enc: node.secretEnc,
              ip: null,
              is_guest_visible: 0,
              traffic_p95_enabled: 0,
              traffic_cycle_mode: 'calendar_month',
              traffic_billing_start_day: 1,
              traffic_billing_anchor_date: '',
              traffic_billing_timezone: '',
              traffic_direction_mode: 'default',
              display_order: (top?.top ?? 0) + 1,
              tags: '[]',
              agent_version: 'unknown',
              os: '',
              platform: '',
              platform_version: '',
              kernel_version: '',
              arch: '',
              interval_sec: 3,
              static_json: null,
              created_at: now,
              updated_at: now,
              deleted_at: null,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          const group = await tx
            .selectFrom('groups')
            .select('id')
            .where('name', '=', 'default')
            .where('deleted_at', 'is', null)
            .orderBy('id')
            .executeTakeFirst();
          if (group) {
            await tx
              .insertInto('node_groups')
              .values({ node_id: inserted.id, group_id: group.id })
              .execute();
          }
          return inserted.id;
        });
        return { ok: true, id };
      } catch (err) {
        if (isUniqueViolation(err)) return { ok: false, reason: 'duplicate_secret' };
        throw err;
      }
    },

    async update(id, changes, now) {
      try {
        return await inTx(db, async (tx) => {
          if ((await liveIds(tx, 'nodes', [id])).size === 0) return 'not_found' as const;
          if (changes.groupIds) {
            const found = await liveIds(tx, 'groups', changes.groupIds);
            if (found.size !== changes.groupIds.length) return 'unknown_group' as const;
          }
          if (changes.secret) {
            const owner = await tx
              .selectFrom('nodes')
              .select('id')
              .where('secret_hash', '=', changes.secret.hash)
              .where('deleted_at', 'is', null)
              .where('id', '!=', id)
              .executeTakeFirst();
            if (owner) return 'duplicate_secret' as const;
          }
          await tx
            .updateTable('nodes')
            .set(columnChanges(changes, now))
            .where('id', '=', id)
            .execute();
          if (changes.groupIds) {
            await tx.deleteFrom('node_groups').where('node_id', '=', id).execute();
            if (changes.groupIds.length > 0) {
              await tx
                .insertInto('node_groups')
                .values(changes.groupIds.map((g) => ({ node_id: id, group_id: g })))
                .execute();
            }
          }
          return 'ok' as const;
        });
      } catch (err) {
        if (isUniqueViolation(err)) return 'duplicate_secret';
        throw err;
      }
    },

    async setTrafficP95(ids, enabled, now) {
      return inTx(db, async (tx) => {
        const found = await liveIds(tx, 'nodes', ids);
        if (found.size !== ids.length) return false;
        await tx
          .updateTable('nodes')
          .set({ traffic_p95_enabled: enabled ? 1 : 0, updated_at: now })
          .where('id', 'in', ids)
          .where('deleted_at', 'is', null)
          .execute();
        return true;
      });
    },

    async setDisplayOrder(ids, now) {
      return inTx(db, async (tx) => {
        const live = await tx
          .selectFrom('nodes')
          .select('id')
          .where('deleted_at', 'is', null)
          .execute();
        const liveSet = new Set(live.map((r) => r.id));
        if (ids.some((id) => !liveSet.has(id))) return 'missing' as const;
        if (ids.length !== liveSet.size) return 'incomplete' as const;
        for (const [i, id] of ids.entries()) {
          await tx
            .updateTable('nodes')
            .set({ display_order: ids.length - i, updated_at: now })
            .where('id', '=', id)
            .execute();
        }
        return 'ok' as const;
      });
    },

    async softDelete(id, now) {
      return inTx(db, async (tx) => {
        const res = await tx
          .updateTable('nodes')
          .set({ deleted_at: now, updated_at: now, secret_hash: null })
          .where('id', '=', id)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (res.numUpdatedRows === 0n) return false;
        await tx.deleteFrom('node_groups').where('node_id', '=', id).execute();
        return true;
      });
    },
  };
}
