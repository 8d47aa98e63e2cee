import type BetterSqlite3 from 'better-sqlite3';
import type { AlertsRepo } from '../ports.js';
import { GROUPS_SQL, SILENCES_SQL } from '../queries/alert-sql.js';
import { toAckResult, toSilence, type SilenceDbRow } from '../queries/alert-rows.js';

/** Silences, acknowledgement and the group list of the alerts repo (part of sqliteAlertsRepo). */
export function sqliteAlertSilences(
  db: BetterSqlite3.Database,
): Pick<AlertsRepo, 'groups' | 'ackEvent' | 'silences' | 'createSilence' | 'deleteSilence'> {
  const listGroups = db.prepare<[], { id: number; name: string }>(GROUPS_SQL);
  const ackEvent = db.prepare<
    [number, number],
    { node_id: number; rule_id: number; status: string }
  >(
    `UPDATE alert_events SET acked_at = coalesce(acked_at, ?) WHERE id = ? AND status = 'open'
       AND node_id IN (SELECT id FROM nodes WHERE deleted_at IS NULL)
     RETURNING node_id, rule_id, status`,
  );
  const eventStatus = db.prepare<[number], { node_id: number; rule_id: number; status: string }>(
    `SELECT e.node_id, e.rule_id, e.status FROM alert_events e
     JOIN nodes n ON n.id = e.node_id AND n.deleted_at IS NULL WHERE e.id = ?`,
  );
  const listSilences = db.prepare<[], SilenceDbRow>(SILENCES_SQL);
  const insertSilence = db.prepare(
    'INSERT INTO alert_silences (scope, target_id, ends_at, note, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const deleteSilence = db.prepare('DELETE FROM alert_silences WHERE id = ?');

  return {
    async groups() {
      return listGroups.all();
    },
    async ackEvent(id, now) {
      const row = ackEvent.get(now, id) ?? eventStatus.get(id);
      return row === undefined ? undefined : toAckResult(row);
    },
    async silences() {
      return listSilences.all().map(toSilence);
    },
    async createSilence(w, now) {
      return Number(insertSilence.run(w.scope, w.targetId, w.endsAt, w.note, now).lastInsertRowid);
    },
    async deleteSilence(id) {
      return deleteSilence.run(id).changes > 0;
    },
  };
}
