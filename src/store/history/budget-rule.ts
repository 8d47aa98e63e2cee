/**
 * The history size budget (`history_max_bytes`), the same rule on both engines: when the
 * database would hold more than the budget, raw history is kept for fewer days than configured,
 * newest days first, whole days at a time; rollups stay. Raw history never goes below
 * MIN_RAW_DAYS; when even that does not fit, the state says "over" and the admin UI warns.
 * The engines give the sizes: SQLite its day ledger of sealed blocks and page counts,
 * PostgreSQL its day partitions' and tables' relation sizes.
 */
export const MIN_RAW_DAYS = 1;
export const DAY_MS = 86_400_000;
/** metrics_jobs rows: the raw cutoff the budget imposed (absent: none) and 1 when over budget. */
export const BUDGET_CUTOFF = 'budget_raw_cutoff';
export const BUDGET_OVER = 'budget_over';

export interface BudgetInput {
  now: number;
  /** The cutoff of the configured raw retention. */
  configuredCutoff: number;
  maxBytes: number;
  /** Bytes of everything Dash stores. */
  usedBytes: number;
  /** Raw history per UTC day (start, epoch ms), oldest first. */
  days: ReadonlyArray<{ day: number; bytes: number }>;
}

/**
 * The raw cutoff the budget needs (undefined: the configured retention fits) and whether even
 * the shortest raw history is over the budget.
 */
export function budgetCutoff(b: BudgetInput): { cutoff: number | undefined; over: boolean } {
  const raw = b.days.reduce((n, d) => n + d.bytes, 0);
  const available = b.maxBytes - (b.usedBytes - raw);
  let kept = 0;
  let cutoff = b.configuredCutoff;
  for (let i = b.days.length - 1; i >= 0; i--) {
    const d = b.days[i]!;
    if (d.day + DAY_MS <= b.configuredCutoff) break;
    kept += d.bytes;
    if (kept > available) {
      cutoff = d.day + DAY_MS;
      break;
    }
  }
  const floor = b.now - MIN_RAW_DAYS * DAY_MS;
  const over = cutoff > floor || available < 0;
  if (cutoff > floor) cutoff = floor;
  return { cutoff: cutoff <= b.configuredCutoff ? undefined : cutoff, over };
}
