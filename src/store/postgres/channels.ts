import type pg from 'pg';
import type { ChannelsRepo } from '../ports.js';
import {
  BACKLOG_SQL,
  toBacklog,
  toChannel,
  type BacklogDbRow,
  type ChannelDbRow,
} from '../queries/channel-rows.js';
import { outboxChanges as items, postgresChannelOutbox } from './channel-outbox.js';
import { inTransaction } from './pool.js';

/**
 * Channels and the delivery outbox on PostgreSQL with SQLite's outcomes; every multi-row change
 * is one transaction, and a revision-checked change locks the channel row first
 * (two instances editing one channel: the second sees `changed`).
 */
export function postgresChannelsRepo(pool: pg.Pool): ChannelsRepo {
  /** Runs `change` on the locked channel row when it is still at `expected`. */
  const atRevision = (
    id: number,
    expected: number,
    change: (c: pg.PoolClient, cur: ChannelDbRow) => Promise<void>,
  ) =>
    inTransaction(pool, async (c): Promise<'ok' | 'missing' | 'changed'> => {
      const cur = (
        await c.query<ChannelDbRow>('SELECT * FROM notify_channels WHERE id = $1 FOR UPDATE', [id])
      ).rows[0];
      if (cur === undefined) return 'missing';
      if (cur.revision !== expected) return 'changed';
      await change(c, cur);
      return 'ok';
    });

  return {
    ...postgresChannelOutbox(pool),
    async list() {
      return (
        await pool.query<ChannelDbRow>('SELECT * FROM notify_channels ORDER BY id DESC')
      ).rows.map(toChannel);
    },
    async get(id) {
      const r = (
        await pool.query<ChannelDbRow>('SELECT * FROM notify_channels WHERE id = $1', [id])
      ).rows[0];
      return r === undefined ? undefined : toChannel(r);
    },
    async backlog() {
      return toBacklog((await pool.query<BacklogDbRow>(BACKLOG_SQL)).rows);
    },
    async create(w, now) {
      const res = await pool.query<{ id: number }>(
        `INSERT INTO notify_channels (name, type, config_sealed, enabled, revision, created_at,
           updated_at) VALUES ($1, $2, $3, $4, 1, $5, $5) RETURNING id`,
        [w.name, w.type, w.sealedConfig, w.enabled, now],
      );
      return res.rows[0]!.id;
    },
    async replace(id, expected, w, now) {
      return atRevision(id, expected, async (c, cur) => {
        await c.query(
          `UPDATE notify_channels SET name = $1, type = $2, config_sealed = $3, enabled = $4,
             revision = revision + 1, updated_at = $5 WHERE id = $6`,
          [w.name, w.type, w.sealedConfig, w.enabled, now, id],
        );
        if (cur.type !== w.type) await items.discardUnsent(c, id, now, 'channel_type_changed');
        else if (w.enabled) await items.wake(c, id, now);
        else await items.pauseUnsent(c, id);
      });
    },
    async updateConfig(id, expected, sealed, now) {
      return atRevision(id, expected, async (c, cur) => {
        await c.query(
          `UPDATE notify_channels SET config_sealed = $1, revision = revision + 1, updated_at = $2
           WHERE id = $3`,
          [sealed, now, id],
        );
        if (cur.enabled === 1) await items.wake(c, id, now);
      });
    },
    async setEnabled(id, enabled, now) {
      return inTransaction(pool, async (c) => {
        const res = await c.query(
          `UPDATE notify_channels SET enabled = $1, revision = revision + 1, updated_at = $2
           WHERE id = $3`,
          [enabled, now, id],
        );
        if ((res.rowCount ?? 0) === 0) return false;
        if (enabled) await items.wake(c, id, now);
        else await items.pauseUnsent(c, id);
        return true;
      });
    },
    async delete(id, now) {
      return inTransaction(pool, async (c) => {
        const res = await c.query('DELETE FROM notify_channels WHERE id = $1', [id]);
        if ((res.rowCount ?? 0) === 0) return false;
        await items.discardUnsent(c, id, now, 'channel_deleted');
        const row = (
          await c.query<{ channel_ids: string }>(
            'SELECT channel_ids FROM alert_settings WHERE id = 1 FOR UPDATE',
          )
        ).rows[0];
        if (row !== undefined) {
          const ids = JSON.parse(row.channel_ids) as number[];
          if (ids.includes(id)) {
            await c.query(
              'UPDATE alert_settings SET channel_ids = $1, updated_at = $2 WHERE id = 1',
              [JSON.stringify(ids.filter((x) => x !== id)), now],
            );
          }
        }
        return true;
      });
    },
    async allExist(ids) {
      const unique = [...new Set(ids)];
      if (unique.length === 0) return true;
      const res = await pool.query<{ n: number }>(
        'SELECT COUNT(*) AS n FROM notify_channels WHERE id = ANY($1::bigint[])',
        [unique],
      );
      return res.rows[0]?.n === unique.length;
    },
    async recordTest(id, revision, result, now) {
      await inTransaction(pool, async (c) => {
        await items.health(c, id, revision, result, now);
        if (!result.ok) return;
        const cur = (
          await c.query<{ enabled: number }>('SELECT enabled FROM notify_channels WHERE id = $1', [
            id,
          ])
        ).rows[0];
        if (cur?.enabled === 1) {
          await c.query(
            `UPDATE notify_outbox SET state = 'retry', next_at = $1, attempts = 0, probes = 0
             WHERE channel_id = $2 AND state = 'blocked'`,
            [now, id],
          );
        }
      });
    },
  };
}
