/** CPU iowait and steal history (as SQLite 0012): two more host columns of the raw table. */
export const up = [
  'ALTER TABLE metrics_raw ADD COLUMN cpu_iowait_ratio bigint',
  'ALTER TABLE metrics_raw ADD COLUMN cpu_steal_ratio bigint',
];
