import type pg from 'pg';
import type { ChannelsRepo, DeliveryOutcome, OutboxItem } from '../ports.js';
import { transitionKey } from '../channel-ports.js';
import {
  UNSENT,
  toItem,
  toTransition,
  type ChannelDbRow,
  type ItemDbRow,
  type PendingTransitionDb,
} from '../queries/channel-rows.js';
import { inTransaction } from './pool.js';

/** A pool or a client inside a transaction. */
type Db = Pick<pg.PoolClient, 'query'>;

const changed = (res: pg.QueryResult) => (res.rowCount ?? 0) > 0;

/** Item changes a channel change makes (shared by the channel part of the repo). */
export const outboxChanges = {
  discardUnsent: (db: Db, id: number, now: number, code: string) =>
    db.query(
      `UPDATE notify_outbox SET state = 'discarded', finished_at = $1, last_error_code = $2,
         lease_until = NULL WHERE channel_id = $3 AND ${UNSENT}`,
      [now, code, id],
    ),
  pauseUnsent: (db: Db, id: number) =>
    db.query(
      `UPDATE notify_outbox SET state = 'paused', lease_until = NULL
       WHERE channel_id = $1 AND state IN ('pending', 'sending', 'retry', 'blocked')`,
      [id],
    ),
  /** Paused or blocked items go out at once with a fresh attempt count. */
  wake: (db: Db, id: number, now: number) =>
    db.query(
      `UPDATE notify_outbox SET state = 'retry', next_at = $1, attempts = 0, probes = 0,
         lease_until = NULL WHERE channel_id = $2 AND state IN ('paused', 'blocked')`,
      [now, id],
    ),
  /** Health of a channel still at `revision`: a success clears the error, a failure counts. */
  health: (
    db: Db,
    id: number,
    revision: number,
    r: { ok: true } | { ok: false; code: string; error: string },
    now: number,
  ) =>
    r.ok
      ? db.query(
          `UPDATE notify_channels SET last_success_at = $1, consecutive_failures = 0,
             last_error_code = NULL, last_error = NULL WHERE id = $2 AND revision = $3`,
          [now, id, revision],
        )
      : db.query(
          `UPDATE notify_channels SET last_failure_at = $1,
             consecutive_failures = consecutive_failures + 1, last_error_code = $2, last_error = $3
           WHERE id = $4 AND revision = $5`,
          [now, r.code, r.error, id, revision],
        ),
};

const ITEM_COLUMNS = 'o.id, o.channel_id, o.dedupe_key, o.payload, o.attempts, o.probes';

/**
 * The delivery half of the channels repo on PostgreSQL, safe with several Dash instances on one
 * database: fan-out runs under a transaction advisory lock (one instance at a time, so digest
 * windows are computed as on SQLite), and a lease takes rows with `FOR UPDATE SKIP LOCKED`,
 * so two instances leasing at the same moment never take the same item.
 */
export function postgresChannelOutbox(
  pool: pg.Pool,
): Pick<ChannelsRepo, 'fanOut' | 'lease' | 'leaseMore' | 'complete'> {
  async function finish(db: Db, id: number, state: string, now: number, code: string | null) {
    return db.query(
      `UPDATE notify_outbox SET state = $1, finished_at = $2, lease_until = NULL,
         last_error_code = $3 WHERE id = $4 AND state = 'sending'`,
      [state, now, code, id],
    );
  }
  async function retry(db: Db, id: number, nextAt: number, code: string) {
    return db.query(
      `UPDATE notify_outbox SET state = 'retry', attempts = attempts + 1, next_at = $1,
         lease_until = NULL, last_error_code = $2 WHERE id = $3 AND state = 'sending'`,
      [nextAt, code, id],
    );
  }
  async function block(db: Db, id: number, probe: boolean, nextAt: number, code: string) {
    return db.query(
      `UPDATE notify_outbox SET state = 'blocked', attempts = attempts + 1, probes = probes + $1,
         next_at = $2, lease_until = NULL, last_error_code = $3
       WHERE id = $4 AND state = 'sending'`,
      [probe ? 1 : 0, nextAt, code, id],
    );
  }
  /** The item-level part of an outcome, for items that shared a digest message. */
  async function completeOnly(db: Db, item: OutboxItem, o: DeliveryOutcome, now: number) {
    if (o.kind === 'sent') await finish(db, item.id, 'sent', now, null);
    else if (o.kind === 'retry') await retry(db, item.id, o.nextAt, o.code);
    else if (o.kind === 'blocked') await block(db, item.id, false, o.nextAt, o.code);
    else await finish(db, item.id, 'discarded', now, o.code);
  }

  return {
    async fanOut(now, compose, limit, digestMs = () => 0) {
      return inTransaction(pool, async (c) => {
        await c.query("SELECT pg_advisory_xact_lock(hashtext('dash.outbox.fan_out'))");
        const rows = (
          await c.query<PendingTransitionDb>(
            `SELECT t.id, t.event_id, t.transition, t.seq, t.close_reason, t.created_at,
               e.flapping, e.rule_id, e.rule_name, e.node_id,
               COALESCE(n.name, '#' || e.node_id) AS node_name, e.metric, e.current_value,
               e.effective_threshold, e.message AS why
             FROM alert_transitions t JOIN alert_events e ON e.id = t.event_id
             LEFT JOIN nodes n ON n.id = e.node_id
             WHERE t.dispatched_at IS NULL ORDER BY t.id LIMIT $1`,
            [limit],
          )
        ).rows;
        if (rows.length === 0) return 0;
        const settings = (
          await c.query<{ channel_ids: string }>(
            'SELECT channel_ids FROM alert_settings WHERE id = 1',
          )
        ).rows[0];
        const ids = settings === undefined ? [] : (JSON.parse(settings.channel_ids) as number[]);
        const found = (
          await c.query<ChannelDbRow>(
            'SELECT * FROM notify_channels WHERE id = ANY($1::bigint[])',
            [ids],
          )
        ).rows;
        // In the settings' order, as SQLite reads them one by one.
        const channels = ids.flatMap((id) => found.filter((ch) => ch.id === id));
        for (const r of rows) {
          const t = toTransition(r);
          const payload = compose(t);
          for (const ch of channels) {
            const digest = ch.enabled === 1 ? digestMs(ch.id) : 0;
            let due = now;
            if (digest > 0) {
              const end = (
                await c.query<{ end: number | null }>(
                  `SELECT MAX(next_at) AS end FROM notify_outbox
                   WHERE channel_id = $1 AND state = 'pending' AND next_at > $2`,
                  [ch.id, now],
                )
              ).rows[0]?.end;
              due = end ?? now + digest;
            }
            await c.query(
              `INSERT INTO notify_outbox (channel_id, dedupe_key, payload, state, next_at, created_at)
               VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
              [
                ch.id,
                `${transitionKey(t)}:${ch.id}`,
                payload,
                ch.enabled === 1 ? 'pending' : 'paused',
                due,
                now,
              ],
            );
          }
          await c.query('UPDATE alert_transitions SET dispatched_at = $1 WHERE id = $2', [
            now,
            t.id,
          ]);
        }
        return rows.length;
      });
    },
    async lease(now, until) {
      // The state before the lease comes from the locked row (`pick`), not the updated one.
      const res = await pool.query<ItemDbRow>(
        `WITH pick AS (
           SELECT id, state FROM notify_outbox
           WHERE (state IN ('pending', 'retry', 'blocked') AND next_at <= $1)
              OR (state = 'sending' AND lease_until <= $1)
           ORDER BY next_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
         UPDATE notify_outbox o SET state = 'sending', lease_until = $2 FROM pick
         WHERE o.id = pick.id RETURNING ${ITEM_COLUMNS}, pick.state`,
        [now, until],
      );
      const row = res.rows[0];
      return row === undefined ? undefined : toItem(row);
    },
    async leaseMore(channelId, now, until, limit) {
      const res = await pool.query<ItemDbRow>(
        `WITH pick AS (
           SELECT id, state FROM notify_outbox
           WHERE channel_id = $1 AND state IN ('pending', 'retry') AND next_at <= $2
           ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
         UPDATE notify_outbox o SET state = 'sending', lease_until = $4 FROM pick
         WHERE o.id = pick.id RETURNING ${ITEM_COLUMNS}, pick.state`,
        [channelId, now, limit, until],
      );
      return res.rows.sort((a, b) => a.id - b.id).map(toItem);
    },
    async complete(item, revision, o, now, also = []) {
      await inTransaction(pool, async (c) => {
        for (const other of also) await completeOnly(c, other, o, now);
        const fail = (code: string, error: string) =>
          outboxChanges.health(c, item.channelId, revision, { ok: false, code, error }, now);
        switch (o.kind) {
          case 'sent':
            if (!changed(await finish(c, item.id, 'sent', now, null))) return;
            await outboxChanges.health(c, item.channelId, revision, { ok: true }, now);
            // A successful probe proves the channel works again: the backlog goes out now.
            if (item.leasedFrom === 'blocked') await outboxChanges.wake(c, item.channelId, now);
            return;
          case 'retry':
            if (!changed(await retry(c, item.id, o.nextAt, o.code))) return;
            await fail(o.code, o.error);
            return;
          case 'blocked':
            if (!changed(await block(c, item.id, o.probe, o.nextAt, o.code))) return;
            await c.query(
              `UPDATE notify_outbox SET state = 'blocked', next_at = $1, lease_until = NULL
               WHERE channel_id = $2 AND state IN ('pending', 'retry', 'blocked')`,
              [o.nextAt, item.channelId],
            );
            await fail(o.code, o.error);
            return;
          case 'discarded':
            await finish(c, item.id, 'discarded', now, o.code);
            return;
        }
      });
    },
  };
}
