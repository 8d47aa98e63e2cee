import type { AlertRule } from './rule.js';

const builtin = (id: number, name: string, metric: AlertRule['metric'], cooldownMin: number) =>
  Object.freeze<AlertRule>({
    id,
    name,
    enabled: true,
    metric,
    operator: '>=',
    threshold: 1,
    durationSec: 0,
    cooldownMin,
    thresholdMode: 'static',
    thresholdOffset: 0,
    clearThreshold: null,
    repeatIntervalMin: 0,
    repeatMax: null,
    generation: 1,
    generationAt: 0,
    createdAt: 0,
    updatedAt: 0,
  });

/**
 * Rules every node has unless unmounted (reference §8.3): always enabled, not editable.
 * Id -5 was retired by the reference and is never reused.
 */
export const BUILTIN_RULES: readonly AlertRule[] = [
  builtin(-1, 'node_offline', 'node.offline', 0),
  builtin(-2, 'raid_failed', 'raid.failed', 30),
  builtin(-3, 'smart_failed', 'disk.smart.failed', 30),
  builtin(-4, 'smart_nvme_critical_warning', 'disk.smart.nvme.critical_warning', 30),
];

export function builtinRule(id: number): AlertRule | undefined {
  return BUILTIN_RULES.find((r) => r.id === id);
}
