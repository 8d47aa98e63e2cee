/**
 * CPU iowait and steal history (issue 18): two more host columns of the raw table, as ratios
 * scaled to 1e-4 like CPU usage. Rollup records carry their own host-series count, so buckets
 * written before this migration simply have no value for the new series.
 */
export const up = [
  'ALTER TABLE metrics_raw ADD COLUMN cpu_iowait_ratio INTEGER',
  'ALTER TABLE metrics_raw ADD COLUMN cpu_steal_ratio INTEGER',
];
