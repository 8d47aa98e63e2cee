import type { Clock } from '../../platform/clock.js';
import type { HistoryStorageRepo } from '../../store/ports.js';

const DAY_MS = 86_400_000;
/** Growth is the average of up to this many complete UTC days. */
const GROWTH_DAYS = 7;

export type BudgetStateName = 'none' | 'ok' | 'shortened' | 'over';

export interface StorageView {
  databaseBytes: number;
  usedBytes: number;
  raw: {
    bytes: number;
    points: number;
    bytesPerReport: number | undefined;
    openRows: number;
    openBytes: number;
    oldestAt: number | undefined;
  };
  /** Raw history sealed per day, averaged over the last complete days; undefined before one. */
  growthBytesPerDay: number | undefined;
  budget: {
    maxBytes: number | undefined;
    state: BudgetStateName;
    rawRetentionDays: number;
    /** Raw history is kept from here when the budget shortened it. */
    rawKeptFrom: number | undefined;
    /** At the current growth, days until the database reaches the budget. */
    daysUntilFull: number | undefined;
  };
}

/**
 * The admin storage panel: database size, growth per day and the state of the size budget
 * (history_max_bytes). The budget itself is enforced by the retention job.
 */
export class StorageService {
  constructor(
    private readonly repo: HistoryStorageRepo,
    private readonly clock: Clock,
    private readonly opts: { maxBytes: number | undefined; rawRetentionDays: number },
  ) {}

  async view(): Promise<StorageView> {
    const f = await this.repo.facts();
    const today = Math.floor(this.clock.now() / DAY_MS) * DAY_MS;
    const complete = f.days.filter((d) => d.day < today).slice(-GROWTH_DAYS);
    const growth =
      complete.length === 0
        ? undefined
        : Math.round(complete.reduce((n, d) => n + d.bytes, 0) / complete.length);
    const max = this.opts.maxBytes;
    let state: BudgetStateName = 'none';
    if (max !== undefined) {
      state = f.budgetOver ? 'over' : f.budgetCutoff !== undefined ? 'shortened' : 'ok';
    }
    return {
      databaseBytes: f.databaseBytes,
      usedBytes: f.usedBytes,
      raw: {
        bytes: f.rawBytes,
        points: f.rawPoints,
        bytesPerReport: f.rawPoints > 0 ? f.rawBytes / f.rawPoints : undefined,
        openRows: f.openRows,
        openBytes: f.openBytes,
        oldestAt: f.rawOldestAt,
      },
      growthBytesPerDay: growth,
      budget: {
        maxBytes: max,
        state,
        rawRetentionDays: this.opts.rawRetentionDays,
        rawKeptFrom: max !== undefined ? f.budgetCutoff : undefined,
        daysUntilFull:
          max !== undefined && growth !== undefined && growth > 0
            ? Math.max(0, (max - f.usedBytes) / growth)
            : undefined,
      },
    };
  }
}
