/** Wire shapes of the traffic reads (reference §6.5, spec §2.4), shared by server and web. */

export type P95Status =
  'available' | 'disabled' | 'lite_mode' | 'insufficient_samples' | 'snapshot_without_p95';
export type StatsStatus = 'provisional' | 'grace' | 'sealed' | 'stale';

/** Stats of one period as the API returns them (reference §6.5). */
export interface TrafficStats {
  in_bytes: number;
  out_bytes: number;
  p95_enabled: boolean;
  p95_status: P95Status;
  p95_unavailable_reason?: P95Status;
  in_p95_bytes_per_sec: number | null;
  out_p95_bytes_per_sec: number | null;
  selected_p95_bytes_per_sec: number | null;
  in_peak_bytes_per_sec: number;
  out_peak_bytes_per_sec: number;
  selected_peak_bytes_per_sec: number;
  selected_bytes: number;
  selected_bytes_direction: 'out' | 'in' | 'total';
  selected_peak_direction: 'out' | 'in' | 'total';
  selected_p95_direction?: 'out' | 'in' | 'total';
  sample_count: number;
  expected_sample_count: number;
  effective_start: string;
  effective_end: string;
  coverage_ratio: number;
  covered_until: string;
  gap_count: number;
  reset_count: number;
  cycle_complete: boolean;
  data_complete: boolean;
  status: StatsStatus;
  /**
   * Calibrated figures (beyond the reference): present only when a recorded bill applies to
   * the period (see `calibration`). The raw fields above keep their meaning.
   */
  adjusted_in_bytes?: number;
  adjusted_out_bytes?: number;
  adjusted_selected_bytes?: number;
  calibration?: TrafficCalibration;
}

/** Which raw figure a recorded bill refers to. */
export type AdjustmentDirection = 'in' | 'out' | 'total';

/**
 * How the adjusted figures of a period were obtained:
 * - `bill`: the period is the billed cycle: the figure in the billed direction is the bill;
 * - `bill_share`: a day of a billed cycle: its raw figures times the bill's ratio;
 * - `estimate`: a cycle without a bill (the current one, or one whose bill is not recorded):
 *   its raw figures times the ratio of the latest billed cycle before it.
 */
export type CalibrationBasis = 'bill' | 'bill_share' | 'estimate';

export interface TrafficCalibration {
  adjustment_id: number;
  basis: CalibrationBasis;
  /** The billed cycle the ratio comes from. */
  source_cycle_start: string;
  source_cycle_end: string;
  direction: AdjustmentDirection;
  billed_bytes: number;
  /** Billed bytes ÷ Dash's raw bytes of the billed cycle in `direction`. */
  ratio: number;
}

/** A recorded bill, as the admin adjustment endpoints list it. */
export interface TrafficAdjustment {
  id: number;
  server_id: number;
  iface: string;
  cycle_start: string;
  cycle_end: string;
  direction: AdjustmentDirection;
  billed_bytes: number;
  /** Dash's raw bytes in `direction` for the cycle when the bill was recorded. */
  raw_bytes: number;
  note: string;
  created_at: string;
  status: 'active' | 'revoked' | 'superseded';
  revoked_at: string | null;
  superseded_by: number | null;
  /** False when the node's cycle settings changed since and no cycle has these bounds now. */
  matches_cycle: boolean;
}

/**
 * End-of-cycle projection from the cycle so far (beyond the reference; summary only). Daily
 * totals of the complete days seen are treated as a sample (one mean, or one per weekday when
 * a weekday pattern is significant); the range is a prediction interval that widens with the
 * days left. With fewer than `min_days` complete days there is no projection (`status`
 * `insufficient_data`, projected fields null) rather than a guess.
 */
export interface TrafficForecast {
  status: 'available' | 'insufficient_data';
  /** Why there is no projection. */
  reason?: 'too_few_days';
  /** Which daily model the projection uses (null without one). */
  model: 'daily_mean' | 'weekday_mean' | null;
  /** Two-sided level of the ranges (0.9: nine cycles in ten should end inside). */
  interval_level: number;
  days_observed: number;
  min_days: number;
  /** Days from the end of the data to the end of the cycle. */
  days_remaining: number;
  /** The direction the selected figure is projected in ('max' takes the larger projection). */
  projected_direction: 'out' | 'in' | 'total';
  /** Mean and day-to-day standard deviation of a complete day's selected bytes. */
  daily_mean_bytes: number | null;
  daily_stddev_bytes: number | null;
  /** Selected bytes at the cycle end: expected value and range (never below what is used). */
  projected_selected_bytes: number | null;
  projected_selected_bytes_low: number | null;
  projected_selected_bytes_high: number | null;
  /** The cycle's final P95 (selected view): expected value and range (null without P95). */
  projected_p95_bytes_per_sec: number | null;
  projected_p95_bytes_per_sec_low: number | null;
  projected_p95_bytes_per_sec_high: number | null;
  /** Share of the cycle already observed (0..1): how much the projection rests on. */
  observed_ratio: number;
  /** The projected figures times the calibration ratio of `stats.calibration` (an estimated
   * bill), present when one applies. */
  adjusted_projected_selected_bytes?: number;
  adjusted_projected_selected_bytes_low?: number;
  adjusted_projected_selected_bytes_high?: number;
}
