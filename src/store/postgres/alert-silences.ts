import type pg from 'pg';
import type { AlertsRepo } from '../ports.js';
import { GROUPS_SQL, SILENCES_SQL } from '../queries/alert-sql.js';
import { toAckResult, toSilence, type SilenceDbRow } from '../queries/alert-rows.js';

type AckDbRow = { node_id: number; rule_id: number; status: string };

/** Silences, acknowledgement and the group list of the alerts repo (part of postgresAlertsRepo). */
export function postgresAlertSilences(
  pool: pg.Pool,
): Pick<AlertsRepo, 'groups' | 'ackEvent' | 'silences' | 'createSilence' | 'deleteSilence'> {
  return {
    async groups() {
      return (await pool.query<{ id: number; name: string }>(GROUPS_SQL)).rows;
    },
    async ackEvent(id, now) {
      // One statement: the first acknowledgement wins even when two instances ack at once.
      const acked = await pool.query<AckDbRow>(
        `UPDATE alert_events SET acked_at = coalesce(acked_at, $1) WHERE id = $2 AND status = 'open'
           AND node_id IN (SELECT id FROM nodes WHERE deleted_at IS NULL)
         RETURNING node_id, rule_id, status`,
        [now, id],
      );
      const row =
        acked.rows[0] ??
        (
          await pool.query<AckDbRow>(
            `SELECT e.node_id, e.rule_id, e.status FROM alert_events e
             JOIN nodes n ON n.id = e.node_id AND n.deleted_at IS NULL WHERE e.id = $1`,
            [id],
          )
        ).rows[0];
      return row === undefined ? undefined : toAckResult(row);
    },
    async silences() {
      return (await pool.query<SilenceDbRow>(SILENCES_SQL)).rows.map(toSilence);
    },
    async createSilence(w, now) {
      const res = await pool.query<{ id: number }>(
        `INSERT INTO alert_silences (scope, target_id, ends_at, note, created_at)
         VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [w.scope, w.targetId, w.endsAt, w.note, now],
      );
      return res.rows[0]!.id;
    },
    async deleteSilence(id) {
      return (
        ((await pool.query('DELETE FROM alert_silences WHERE id = $1', [id])).rowCount ?? 0) > 0
      );
    },
  };
}
