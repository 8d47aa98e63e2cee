/** Strings of the storage panel (admin settings). */
export const storageEn = {
  title: 'Storage',
  database: 'Database size',
  databaseValue: (size: string, used: string) => `${size} (${used} in use)`,
  rawHistory: 'Raw history',
  rawValue: (size: string, reports: string, perReport: string) =>
    `${size} for ${reports} reports (${perReport} per report)`,
  openValue: (size: string, reports: string) => `${size} for ${reports} reports`,
  open: 'Not yet sealed',
  oldest: 'Oldest raw report',
  growth: 'Growth per day',
  growthUnknown: 'not known yet (needs a full day)',
  budget: 'Size budget',
  budgetNone: 'none (history_max_bytes is not set)',
  budgetValue: (max: string) => `${max}`,
  daysUntilFull: (days: string) => `about ${days} days until the budget is reached`,
  ok: (days: number) => `Within budget: raw history is kept for ${days} days as configured.`,
  shortened: (from: string, days: number) =>
    `The database would pass its size budget: raw history is kept only from ${from} instead of ${days} days.`,
  over: (from: string) =>
    `Over the size budget even with one day of raw history (kept from ${from}). Raise history_max_bytes or free disk space.`,
};
