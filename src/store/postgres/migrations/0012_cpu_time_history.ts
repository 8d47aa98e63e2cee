/**
 * CPU iowait and steal history (as SQLite 0012): two more host columns of the raw table, ratios
 * scaled to 1e-4 like CPU usage. Added to the partitioned parent, they reach every partition.
 */
export const up = [
  'ALTER TABLE metrics_raw ADD COLUMN cpu_iowait_ratio bigint',
  'ALTER TABLE metrics_raw ADD COLUMN cpu_steal_ratio bigint',
];
