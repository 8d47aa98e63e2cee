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
}

/** End-of-cycle projection from the trend so far (beyond the reference; an extra field). */
export interface TrafficForecast {
  /** Selected bytes at the cycle end if the average rate so far continues. */
  projected_selected_bytes: number;
  /** A plausible range: never below what is already used; wider early in the cycle. */
  projected_selected_bytes_low: number;
  projected_selected_bytes_high: number;
  /** P95 so far, the best estimate of the cycle's P95 (null when unavailable). */
  projected_p95_bytes_per_sec: number | null;
  /** Share of the cycle already observed (0..1): how much the projection rests on. */
  observed_ratio: number;
}
