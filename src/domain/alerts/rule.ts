import type { AlertMetric } from './catalog.js';

import { ALERT_DURATIONS, ALERT_OPERATORS } from '../../protocol/alert-metrics.js';

export { ALERT_DURATIONS, ALERT_OPERATORS };
export type AlertOperator = (typeof ALERT_OPERATORS)[number];
export type ThresholdMode = 'static' | 'core_plus';
export const MAX_COOLDOWN_MIN = 525_600;

/** A rule as evaluation sees it: user rules (positive ids) and built-ins (negative ids). */
export interface AlertRule {
  id: number;
  name: string;
  enabled: boolean;
  metric: AlertMetric;
  operator: AlertOperator;
  threshold: number;
  durationSec: number;
  cooldownMin: number;
  thresholdMode: ThresholdMode;
  thresholdOffset: number;
  /** Hysteresis: a firing event closes only once the value no longer passes this; null = threshold. */
  clearThreshold: number | null;
  /** Minutes between repeat notifications of an open event; 0 = none. */
  repeatIntervalMin: number;
  /** Repeat notifications per event at most; null = the global setting. */
  repeatMax: number | null;
  /** Bumped by every edit of the condition; open events of an older generation are closed. */
  generation: number;
  /** When the current generation started (epoch ms): pending never starts before it. */
  generationAt: number;
  createdAt: number;
  updatedAt: number;
}

export function isBuiltinRuleId(id: number): boolean {
  return id < 0;
}

export function compare(value: number, op: AlertOperator, threshold: number): boolean {
  switch (op) {
    case '>':
      return value > threshold;
    case '>=':
      return value >= threshold;
    case '<':
      return value < threshold;
    case '<=':
      return value <= threshold;
    case '==':
      return value === threshold;
    case '!=':
      return value !== threshold;
  }
}

/** The threshold in force for a node: `core_plus` adds the node's core count (reference §8.2). */
export function effectiveThreshold(rule: AlertRule, cores: number): number {
  return shifted(rule, rule.threshold, cores);
}

/** The clear threshold in force for a node (the trigger threshold unless one is set). */
export function effectiveClearThreshold(rule: AlertRule, cores: number): number {
  return shifted(rule, rule.clearThreshold ?? rule.threshold, cores);
}

function shifted(rule: AlertRule, base: number, cores: number): number {
  return rule.thresholdMode === 'core_plus' ? cores + base + rule.thresholdOffset : base;
}

/**
 * Whether a clear threshold lies on the clearing side of the trigger threshold: below it for
 * `>`/`>=`, above it for `<`/`<=`; `==` and `!=` take none but the threshold itself.
 */
export function clearThresholdValid(op: AlertOperator, threshold: number, clear: number): boolean {
  switch (op) {
    case '>':
    case '>=':
      return clear <= threshold;
    case '<':
    case '<=':
      return clear >= threshold;
    case '==':
    case '!=':
      return clear === threshold;
  }
}
