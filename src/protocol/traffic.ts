/** Wire shapes of the traffic reads (reference §6.5, spec §2.4), shared by server and web. */
import { Type, type Static } from 'typebox';
import { Nullable, OneOf } from './api/scalars.js';

const P95_STATUSES = [
  'available',
  'disabled',
  'lite_mode',
  'insufficient_samples',
  'snapshot_without_p95',
] as const;
export type P95Status = (typeof P95_STATUSES)[number];
const STATS_STATUSES = ['provisional', 'grace', 'sealed', 'stale'] as const;
export type StatsStatus = (typeof STATS_STATUSES)[number];
const FIGURE_DIRECTIONS = ['out', 'in', 'total'] as const;

/** Which raw figure a recorded bill refers to. */
export const ADJUSTMENT_DIRECTIONS = ['in', 'out', 'total'] as const;
export type AdjustmentDirection = (typeof ADJUSTMENT_DIRECTIONS)[number];

/**
 * How the adjusted figures of a period were obtained:
 * - `bill`: the period is the billed cycle: the figure in the billed direction is the bill;
 * - `bill_share`: a day of a billed cycle: its raw figures times the bill's ratio;
 * - `estimate`: a cycle without a bill (the current one, or one whose bill is not recorded):
 *   its raw figures times the ratio of the latest billed cycle before it.
 */
export type CalibrationBasis = 'bill' | 'bill_share' | 'estimate';

export const TrafficCalibrationSchema = Type.Object({
  adjustment_id: Type.Integer(),
  basis: OneOf(['bill', 'bill_share', 'estimate']),
  /** The billed cycle the ratio comes from. */
  source_cycle_start: Type.String(),
  source_cycle_end: Type.String(),
  direction: OneOf(ADJUSTMENT_DIRECTIONS),
  billed_bytes: Type.Number(),
  /** Billed bytes ÷ Dash's raw bytes of the billed cycle in `direction`. */
  ratio: Type.Number(),
});
export type TrafficCalibration = Static<typeof TrafficCalibrationSchema>;

/** Stats of one period as the API returns them (reference §6.5). */
export const TrafficStatsSchema = Type.Object({
  in_bytes: Type.Number(),
  out_bytes: Type.Number(),
  p95_enabled: Type.Boolean(),
  p95_status: OneOf(P95_STATUSES),
  p95_unavailable_reason: Type.Optional(OneOf(P95_STATUSES)),
  in_p95_bytes_per_sec: Nullable(Type.Number()),
  out_p95_bytes_per_sec: Nullable(Type.Number()),
  selected_p95_bytes_per_sec: Nullable(Type.Number()),
  in_peak_bytes_per_sec: Type.Number(),
  out_peak_bytes_per_sec: Type.Number(),
  selected_peak_bytes_per_sec: Type.Number(),
  selected_bytes: Type.Number(),
  selected_bytes_direction: OneOf(FIGURE_DIRECTIONS),
  selected_peak_direction: OneOf(FIGURE_DIRECTIONS),
  selected_p95_direction: Type.Optional(OneOf(FIGURE_DIRECTIONS)),
  sample_count: Type.Number(),
  expected_sample_count: Type.Number(),
  effective_start: Type.String(),
  effective_end: Type.String(),
  coverage_ratio: Type.Number(),
  covered_until: Type.String(),
  gap_count: Type.Number(),
  reset_count: Type.Number(),
  cycle_complete: Type.Boolean(),
  data_complete: Type.Boolean(),
  status: OneOf(STATS_STATUSES),
  /**
   * Calibrated figures (beyond the reference): present only when a recorded bill applies to
   * the period (see `calibration`). The raw fields above keep their meaning.
   */
  adjusted_in_bytes: Type.Optional(Type.Number()),
  adjusted_out_bytes: Type.Optional(Type.Number()),
  adjusted_selected_bytes: Type.Optional(Type.Number()),
  calibration: Type.Optional(TrafficCalibrationSchema),
});
export type TrafficStats = Static<typeof TrafficStatsSchema>;

/** A recorded bill, as the admin adjustment endpoints list it. */
export const TrafficAdjustmentSchema = Type.Object({
  id: Type.Integer(),
  server_id: Type.Integer(),
  iface: Type.String(),
  cycle_start: Type.String({ format: 'date-time' }),
  cycle_end: Type.String({ format: 'date-time' }),
  direction: OneOf(ADJUSTMENT_DIRECTIONS),
  billed_bytes: Type.Integer({ minimum: 1 }),
  /** Dash's raw bytes in `direction` for the cycle when the bill was recorded. */
  raw_bytes: Type.Integer({ minimum: 0 }),
  note: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  status: OneOf(['active', 'revoked', 'superseded']),
  revoked_at: Nullable(Type.String({ format: 'date-time' })),
  superseded_by: Nullable(Type.Integer()),
  /** False when the node's cycle settings changed since and no cycle has these bounds now. */
  matches_cycle: Type.Boolean(),
});
export type TrafficAdjustment = Static<typeof TrafficAdjustmentSchema>;

/**
 * A bill to record, as the web sends it. The route's own body schema takes any value per
 * field: the domain checks each with its own code.
 */
export const NewAdjustmentSchema = Type.Object({
  iface: Type.String(),
  cycle_start: Type.String(),
  direction: OneOf(ADJUSTMENT_DIRECTIONS),
  billed_bytes: Type.Number(),
  note: Type.String(),
});
export type NewAdjustment = Static<typeof NewAdjustmentSchema>;

/**
 * End-of-cycle projection from the cycle so far (beyond the reference; summary only). Daily
 * totals of the complete days seen are treated as a sample (one mean, or one per weekday when
 * a weekday pattern is significant); the range is a prediction interval that widens with the
 * days left. With fewer than `min_days` complete days there is no projection (`status`
 * `insufficient_data`, projected fields null) rather than a guess.
 */
export const TrafficForecastSchema = Type.Object({
  status: OneOf(['available', 'insufficient_data']),
  /** Why there is no projection. */
  reason: Type.Optional(OneOf(['too_few_days'])),
  /** Which daily model the projection uses (null without one). */
  model: Nullable(OneOf(['daily_mean', 'weekday_mean'])),
  /** Two-sided level of the ranges (0.9: nine cycles in ten should end inside). */
  interval_level: Type.Number(),
  days_observed: Type.Number(),
  min_days: Type.Number(),
  /** Days from the end of the data to the end of the cycle. */
  days_remaining: Type.Number(),
  /** The direction the selected figure is projected in ('max' takes the larger projection). */
  projected_direction: OneOf(FIGURE_DIRECTIONS),
  /** Mean and day-to-day standard deviation of a complete day's selected bytes. */
  daily_mean_bytes: Nullable(Type.Number()),
  daily_stddev_bytes: Nullable(Type.Number()),
  /** Selected bytes at the cycle end: expected value and range (never below what is used). */
  projected_selected_bytes: Nullable(Type.Number()),
  projected_selected_bytes_low: Nullable(Type.Number()),
  projected_selected_bytes_high: Nullable(Type.Number()),
  /** The cycle's final P95 (selected view): expected value and range (null without P95). */
  projected_p95_bytes_per_sec: Nullable(Type.Number()),
  projected_p95_bytes_per_sec_low: Nullable(Type.Number()),
  projected_p95_bytes_per_sec_high: Nullable(Type.Number()),
  /** Share of the cycle already observed (0..1): how much the projection rests on. */
  observed_ratio: Type.Number(),
  /**
   * The projected figures times the calibration ratio of `stats.calibration` (an estimated
   * bill), present when one applies.
   */
  adjusted_projected_selected_bytes: Type.Optional(Type.Number()),
  adjusted_projected_selected_bytes_low: Type.Optional(Type.Number()),
  adjusted_projected_selected_bytes_high: Type.Optional(Type.Number()),
});
export type TrafficForecast = Static<typeof TrafficForecastSchema>;

const USAGE_MODES = ['lite', 'billing'] as const;
const NODE_DIRECTIONS = ['out', 'both', 'max'] as const;

/** GET /api/statistics/traffic/summary: one interface's current cycle. */
export const TrafficSummarySchema = Type.Object({
  server_id: Type.Integer(),
  server_name: Type.Optional(Type.String()),
  iface: Type.String(),
  usage_mode: OneOf(USAGE_MODES),
  direction_mode: OneOf(NODE_DIRECTIONS),
  cycle: Type.Object({
    mode: OneOf(['calendar_month', 'whmcs_compatible', 'clamp_to_month_end']),
    billing_start_day: Type.Integer(),
    billing_anchor_date: Type.Optional(Type.String()),
    timezone: Type.String(),
    start: Type.String(),
    end: Type.String(),
  }),
  stats: TrafficStatsSchema,
  /** Projection to the end of the current cycle (summary only; beyond the reference). */
  forecast: Type.Optional(TrafficForecastSchema),
});
export type TrafficSummary = Static<typeof TrafficSummarySchema>;

/** GET …/traffic/monthly: the cycles newest first. */
export const TrafficMonthlySchema = Type.Object({
  includes_current: Type.Boolean(),
  items: Type.Array(TrafficSummarySchema),
});

export const TrafficDaySchema = Type.Object({
  server_id: Type.Integer(),
  iface: Type.String(),
  usage_mode: OneOf(USAGE_MODES),
  direction_mode: OneOf(NODE_DIRECTIONS),
  start: Type.String(),
  end: Type.String(),
  stats: TrafficStatsSchema,
});
export type TrafficDay = Static<typeof TrafficDaySchema>;

/** GET …/traffic/daily: the days of one cycle. */
export const TrafficDailySchema = Type.Object({ items: Type.Array(TrafficDaySchema) });

export const TrafficIfacesSchema = Type.Array(Type.Object({ name: Type.String() }));

/** Traffic rebuild task (spec §2.8; process-local, lost on restart), with progress. */
export const RebuildStateSchema = Type.Object({
  server_id: Type.Integer(),
  status: OneOf(['idle', 'running', 'completed', 'failed']),
  running: Type.Boolean(),
  started_at: Type.Optional(Type.String()),
  finished_at: Type.Optional(Type.String()),
  code: Type.Optional(
    OneOf([
      'traffic_rebuild_requires_billing',
      'traffic_rebuild_timeout',
      'traffic_rebuild_failed',
    ]),
  ),
  error: Type.Optional(Type.String()),
  /** Chunks rewritten so far and in all, and the instant facts are rebuilt up to. */
  chunks_done: Type.Integer(),
  chunks_total: Type.Integer(),
  rebuilt_until: Type.Optional(Type.String()),
});
export type RebuildState = Static<typeof RebuildStateSchema>;

export type TrafficIfaces = Static<typeof TrafficIfacesSchema>;
export type TrafficDaily = Static<typeof TrafficDailySchema>;
export type TrafficMonthly = Static<typeof TrafficMonthlySchema>;

export const TrafficAdjustmentsSchema = Type.Object({ items: Type.Array(TrafficAdjustmentSchema) });
export type TrafficAdjustments = Static<typeof TrafficAdjustmentsSchema>;
