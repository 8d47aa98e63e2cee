import type BetterSqlite3 from 'better-sqlite3';
import type {
  ChannelsRepo,
  ChannelWrite,
  DeliveryOutcome,
  OutboxItem,
  PendingTransition,
} from '../ports.js';
import { transitionKey } from '../channel-ports.js';
import {
  BACKLOG_SQL,
  UNSENT,
  toBacklog,
  toChannel,
  toItem,
  toTransition,
  type BacklogDbRow,
  type ChannelDbRow,
  type ItemDbRow,
  type PendingTransitionDb,
} from '../queries/channel-rows.js';

/** Channels and the delivery outbox on SQLite; every multi-row change is one transaction. */
export function sqliteChannelsRepo(db: BetterSqlite3.Database): ChannelsRepo {
  const selectAll = db.prepare<[], ChannelDbRow>('SELECT * FROM notify_channels ORDER BY id DESC');
  const selectOne = db.prepare<[number], ChannelDbRow>(
    'SELECT * FROM notify_channels WHERE id = ?',
  );
  const backlogRows = db.prepare<[], BacklogDbRow>(BACKLOG_SQL);
  const insert = db.prepare(
    `INSERT INTO notify_channels (name, type, config_sealed, enabled, revision, created_at, updated_at)
     VALUES (?, ?, ?, ?, 1, ?, ?)`,
  );
  const update = db.prepare(
    `UPDATE notify_channels SET name = ?, type = ?, config_sealed = ?, enabled = ?,
       revision = revision + 1, updated_at = ? WHERE id = ?`,
  );
  const updateConfig = db.prepare(
    `UPDATE notify_channels SET config_sealed = ?, revision = revision + 1, updated_at = ? WHERE id = ?`,
  );
  const setEnabled = db.prepare(
    `UPDATE notify_channels SET enabled = ?, revision = revision + 1, updated_at = ? WHERE id = ?`,
  );
  const discardUnsent = db.prepare(
    `UPDATE notify_outbox SET state = 'discarded', finished_at = ?, last_error_code = ?, lease_until = NULL
     WHERE channel_id = ? AND ${UNSENT}`,
  );
  const pauseUnsent = db.prepare(
    `UPDATE notify_outbox SET state = 'paused', lease_until = NULL
     WHERE channel_id = ? AND state IN ('pending', 'sending', 'retry', 'blocked')`,
  );
  const wake = db.prepare(
    `UPDATE notify_outbox SET state = 'retry', next_at = ?, attempts = 0, probes = 0, lease_until = NULL
     WHERE channel_id = ? AND state IN ('paused', 'blocked')`,
  );
  const deleteChannel = db.prepare('DELETE FROM notify_channels WHERE id = ?');
  const settingsRow = db.prepare<[], { channel_ids: string }>(
    'SELECT channel_ids FROM alert_settings WHERE id = 1',
  );
  const setSettingsChannels = db.prepare(
    'UPDATE alert_settings SET channel_ids = ?, updated_at = ? WHERE id = 1',
  );
  const countIds = db.prepare<[string], { n: number }>(
    'SELECT COUNT(*) AS n FROM notify_channels WHERE id IN (SELECT value FROM json_each(?))',
  );
  const pendingTransitions = db.prepare<[number], PendingTransitionDb>(
    `SELECT t.id, t.event_id, t.transition, t.seq, t.close_reason, t.created_at, e.flapping,
       e.rule_id, e.rule_name,
       e.node_id, COALESCE(n.name, '#' || e.node_id) AS node_name, e.metric, e.current_value,
       e.effective_threshold, e.message AS why
     FROM alert_transitions t JOIN alert_events e ON e.id = t.event_id
     LEFT JOIN nodes n ON n.id = e.node_id
     WHERE t.dispatched_at IS NULL ORDER BY t.id LIMIT ?`,
  );
  const markDispatched = db.prepare('UPDATE alert_transitions SET dispatched_at = ? WHERE id = ?');
  const insertItem = db.prepare(
    `INSERT OR IGNORE INTO notify_outbox (channel_id, dedupe_key, payload, state, next_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const windowEnd = db.prepare<[number, number], { end: number | null }>(
    `SELECT MAX(next_at) AS end FROM notify_outbox
     WHERE channel_id = ? AND state = 'pending' AND next_at > ?`,
  );
  const moreDue = db.prepare<[number, number, number], ItemDbRow>(
    `SELECT id, channel_id, dedupe_key, payload, state, attempts, probes FROM notify_outbox
     WHERE channel_id = ? AND state IN ('pending', 'retry') AND next_at <= ?
     ORDER BY id LIMIT ?`,
  );
  const nextDue = db.prepare<[number, number], ItemDbRow>(
    `SELECT id, channel_id, dedupe_key, payload, state, attempts, probes FROM notify_outbox
     WHERE (state IN ('pending', 'retry', 'blocked') AND next_at <= ?)
        OR (state = 'sending' AND lease_until <= ?)
     ORDER BY next_at, id LIMIT 1`,
  );
  const leaseItem = db.prepare(
    `UPDATE notify_outbox SET state = 'sending', lease_until = ? WHERE id = ?`,
  );
  const finishItem = db.prepare(
    `UPDATE notify_outbox SET state = ?, finished_at = ?, lease_until = NULL, last_error_code = ?
     WHERE id = ? AND state = 'sending'`,
  );
  const retryItem = db.prepare(
    `UPDATE notify_outbox SET state = 'retry', attempts = attempts + 1, next_at = ?, lease_until = NULL,
       last_error_code = ? WHERE id = ? AND state = 'sending'`,
  );
  const blockItem = db.prepare(
    `UPDATE notify_outbox SET state = 'blocked', attempts = attempts + 1, probes = probes + ?,
       next_at = ?, lease_until = NULL, last_error_code = ? WHERE id = ? AND state = 'sending'`,
  );
  const coalesceBlocked = db.prepare(
    `UPDATE notify_outbox SET state = 'blocked', next_at = ?, lease_until = NULL
     WHERE channel_id = ? AND state IN ('pending', 'retry', 'blocked')`,
  );
  const healthOk = db.prepare(
    `UPDATE notify_channels SET last_success_at = ?, consecutive_failures = 0, last_error_code = NULL,
       last_error = NULL WHERE id = ? AND revision = ?`,
  );
  const healthFail = db.prepare(
    `UPDATE notify_channels SET last_failure_at = ?, consecutive_failures = consecutive_failures + 1,
       last_error_code = ?, last_error = ? WHERE id = ? AND revision = ?`,
  );

  const applyReplace = db.transaction(
    (id: number, expected: number, w: ChannelWrite, now: number): 'ok' | 'missing' | 'changed' => {
      const cur = selectOne.get(id);
      if (cur === undefined) return 'missing';
      if (cur.revision !== expected) return 'changed';
      update.run(w.name, w.type, w.sealedConfig, w.enabled ? 1 : 0, now, id);
      if (cur.type !== w.type) discardUnsent.run(now, 'channel_type_changed', id);
      else if (w.enabled) wake.run(now, id);
      else pauseUnsent.run(id);
      return 'ok';
    },
  );
  const applyConfig = db.transaction(
    (id: number, expected: number, sealed: string, now: number): 'ok' | 'missing' | 'changed' => {
      const cur = selectOne.get(id);
      if (cur === undefined) return 'missing';
      if (cur.revision !== expected) return 'changed';
      updateConfig.run(sealed, now, id);
      if (cur.enabled === 1) wake.run(now, id);
      return 'ok';
    },
  );
  const applyEnabled = db.transaction((id: number, enabled: boolean, now: number): boolean => {
    if (setEnabled.run(enabled ? 1 : 0, now, id).changes === 0) return false;
    if (enabled) wake.run(now, id);
    else pauseUnsent.run(id);
    return true;
  });
  const applyDelete = db.transaction((id: number, now: number): boolean => {
    if (deleteChannel.run(id).changes === 0) return false;
    discardUnsent.run(now, 'channel_deleted', id);
    const row = settingsRow.get();
    if (row !== undefined) {
      const ids = JSON.parse(row.channel_ids) as number[];
      if (ids.includes(id)) {
        setSettingsChannels.run(JSON.stringify(ids.filter((x) => x !== id)), now);
      }
    }
    return true;
  });
  const applyFanOut = db.transaction(
    (
      now: number,
      compose: (t: PendingTransition) => string,
      limit: number,
      digestMs: (channelId: number) => number,
    ): number => {
      const rows = pendingTransitions.all(limit);
      if (rows.length === 0) return 0;
      const row = settingsRow.get();
      const ids = row === undefined ? [] : (JSON.parse(row.channel_ids) as number[]);
      const channels = ids.flatMap((id) => {
        const c = selectOne.get(id);
        return c === undefined ? [] : [c];
      });
      for (const r of rows) {
        const t = toTransition(r);
        const payload = compose(t);
        for (const c of channels) {
          const digest = c.enabled === 1 ? digestMs(c.id) : 0;
          const due = digest > 0 ? (windowEnd.get(c.id, now)?.end ?? now + digest) : now;
          insertItem.run(
            c.id,
            `${transitionKey(t)}:${c.id}`,
            payload,
            c.enabled === 1 ? 'pending' : 'paused',
            due,
            now,
          );
        }
        markDispatched.run(now, t.id);
      }
      return rows.length;
    },
  );
  const applyLease = db.transaction((now: number, until: number): OutboxItem | undefined => {
    const row = nextDue.get(now, now);
    if (row === undefined) return undefined;
    leaseItem.run(until, row.id);
    return toItem(row);
  });
  const applyLeaseMore = db.transaction(
    (channelId: number, now: number, until: number, limit: number): OutboxItem[] =>
      moreDue.all(channelId, now, limit).map((row) => {
        leaseItem.run(until, row.id);
        return toItem(row);
      }),
  );
  const health = (
    channelId: number,
    revision: number,
    ok: boolean,
    code: string | null,
    error: string | null,
    now: number,
  ) => {
    if (ok) healthOk.run(now, channelId, revision);
    else healthFail.run(now, code, error, channelId, revision);
  };
  /** The item-level part of an outcome, for items that shared a digest message. */
  const completeOnly = (item: OutboxItem, o: DeliveryOutcome, now: number): void => {
    if (o.kind === 'sent') finishItem.run('sent', now, null, item.id);
    else if (o.kind === 'retry') retryItem.run(o.nextAt, o.code, item.id);
    else if (o.kind === 'blocked') blockItem.run(0, o.nextAt, o.code, item.id);
    else finishItem.run('discarded', now, o.code, item.id);
  };
  const applyComplete = db.transaction(
    (
      item: OutboxItem,
      revision: number,
      o: DeliveryOutcome,
      now: number,
      also: readonly OutboxItem[],
    ): void => {
      for (const other of also) completeOnly(other, o, now);
      switch (o.kind) {
        case 'sent':
          if (finishItem.run('sent', now, null, item.id).changes === 0) return;
          health(item.channelId, revision, true, null, null, now);
          // A successful probe proves the channel works again: the backlog goes out now.
          if (item.leasedFrom === 'blocked') wake.run(now, item.channelId);
          return;
        case 'retry':
          if (retryItem.run(o.nextAt, o.code, item.id).changes === 0) return;
          health(item.channelId, revision, false, o.code, o.error, now);
          return;
        case 'blocked':
          if (blockItem.run(o.probe ? 1 : 0, o.nextAt, o.code, item.id).changes === 0) return;
          coalesceBlocked.run(o.nextAt, item.channelId);
          health(item.channelId, revision, false, o.code, o.error, now);
          return;
        case 'discarded':
          finishItem.run('discarded', now, o.code, item.id);
          return;
      }
    },
  );
  const applyTest = db.transaction(
    (
      id: number,
      revision: number,
      r: { ok: true } | { ok: false; code: string; error: string },
      now: number,
    ) => {
      if (r.ok) {
        health(id, revision, true, null, null, now);
        const cur = selectOne.get(id);
        if (cur?.enabled === 1) {
          db.prepare(
            `UPDATE notify_outbox SET state = 'retry', next_at = ?, attempts = 0, probes = 0
             WHERE channel_id = ? AND state = 'blocked'`,
          ).run(now, id);
        }
      } else health(id, revision, false, r.code, r.error, now);
    },
  );

  return {
    async list() {
      return selectAll.all().map(toChannel);
    },
    async get(id) {
      const r = selectOne.get(id);
      return r === undefined ? undefined : toChannel(r);
    },
    async backlog() {
      return toBacklog(backlogRows.all());
    },
    async create(w, now) {
      return Number(
        insert.run(w.name, w.type, w.sealedConfig, w.enabled ? 1 : 0, now, now).lastInsertRowid,
      );
    },
    async replace(id, expected, w, now) {
      return applyReplace(id, expected, w, now);
    },
    async updateConfig(id, expected, sealed, now) {
      return applyConfig(id, expected, sealed, now);
    },
    async setEnabled(id, enabled, now) {
      return applyEnabled(id, enabled, now);
    },
    async delete(id, now) {
      return applyDelete(id, now);
    },
    async allExist(ids) {
      const unique = [...new Set(ids)];
      if (unique.length === 0) return true;
      return countIds.get(JSON.stringify(unique))?.n === unique.length;
    },
    async fanOut(now, compose, limit, digestMs = () => 0) {
      return applyFanOut(now, compose, limit, digestMs);
    },
    async lease(now, until) {
      return applyLease(now, until);
    },
    async leaseMore(channelId, now, until, limit) {
      return applyLeaseMore(channelId, now, until, limit);
    },
    async complete(item, revision, outcome, now, also = []) {
      applyComplete(item, revision, outcome, now, also);
    },
    async recordTest(id, revision, result, now) {
      applyTest(id, revision, result, now);
    },
  };
}
