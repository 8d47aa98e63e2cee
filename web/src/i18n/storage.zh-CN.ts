import type { storageEn } from './storage.en';

/** 存储面板（管理设置）。 */
export const storageZh: typeof storageEn = {
  title: '存储',
  database: '数据库大小',
  databaseValue: (size: string, used: string) => `${size}（已用 ${used}）`,
  rawHistory: '原始历史',
  rawValue: (size: string, reports: string, perReport: string) =>
    `${size}，共 ${reports} 条上报（每条 ${perReport}）`,
  openValue: (size: string, reports: string) => `${size}，共 ${reports} 条上报`,
  open: '尚未封存',
  oldest: '最早的原始上报',
  growth: '每日增长',
  growthUnknown: '暂不可知（需要满一天）',
  budget: '容量预算',
  budgetNone: '未设置（history_max_bytes 未配置）',
  budgetValue: (max: string) => `${max}`,
  daysUntilFull: (days: string) => `约 ${days} 天后达到预算`,
  ok: (days: number) => `在预算之内：原始历史按配置保留 ${days} 天。`,
  shortened: (from: string, days: number) =>
    `数据库将超出容量预算：原始历史仅保留自 ${from} 起，而非 ${days} 天。`,
  over: (from: string) =>
    `即使只保留一天原始历史（自 ${from} 起）仍超出容量预算。请调大 history_max_bytes 或释放磁盘空间。`,
};
