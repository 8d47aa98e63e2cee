import { AppError } from '../../errors/app-error.js';
import { cleanText } from '../common/text.js';
import { CORE_PLUS_METRICS, isAlertMetric, type AlertMetric } from './catalog.js';
import {
  ALERT_DURATIONS,
  ALERT_OPERATORS,
  MAX_COOLDOWN_MIN,
  clearThresholdValid,
  type AlertOperator,
  type ThresholdMode,
} from './rule.js';

export const MAX_REPEAT_INTERVAL_MIN = 1440;
export const MAX_REPEATS = 100;

/** Body of POST and PATCH /api/admin/alerts/rules/ (reference §8.1); PATCH sends a subset. */
export interface RuleInput {
  name?: unknown;
  enabled?: unknown;
  metric?: unknown;
  operator?: unknown;
  threshold?: unknown;
  duration_sec?: unknown;
  cooldown_min?: unknown;
  threshold_mode?: unknown;
  threshold_offset?: unknown;
  clear_threshold?: unknown;
  repeat_interval_min?: unknown;
  repeat_max?: unknown;
}

/** The editable fields of a rule after validation. */
export interface RuleFields {
  name: string;
  enabled: boolean;
  metric: AlertMetric;
  operator: AlertOperator;
  threshold: number;
  durationSec: number;
  cooldownMin: number;
  thresholdMode: ThresholdMode;
  thresholdOffset: number;
  clearThreshold: number | null;
  repeatIntervalMin: number;
  repeatMax: number | null;
}

export const RULE_DEFAULTS = {
  enabled: true,
  durationSec: 60,
  cooldownMin: 0,
  thresholdMode: 'static',
  thresholdOffset: 0,
  clearThreshold: null,
  repeatIntervalMin: 0,
  repeatMax: null,
} as const;

const bad = (): never => {
  throw new AppError('invalid_fields');
};

function finite(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : bad();
}

function intIn(v: unknown, min: number, max: number): number {
  return Number.isInteger(v) && (v as number) >= min && (v as number) <= max
    ? (v as number)
    : bad();
}

/** Parses each present field; absent fields stay absent. Every failure is invalid_fields. */
export function parseRuleFields(input: RuleInput): Partial<RuleFields> {
  const out: Partial<RuleFields> = {};
  if (input.name !== undefined)
    out.name = (typeof input.name === 'string' && cleanText(input.name, 1, 128)) || bad();
  if (input.enabled !== undefined)
    out.enabled = typeof input.enabled === 'boolean' ? input.enabled : bad();
  if (input.metric !== undefined)
    out.metric =
      typeof input.metric === 'string' && isAlertMetric(input.metric) ? input.metric : bad();
  if (input.operator !== undefined)
    out.operator = ALERT_OPERATORS.includes(input.operator as AlertOperator)
      ? (input.operator as AlertOperator)
      : bad();
  if (input.threshold !== undefined) out.threshold = finite(input.threshold);
  if (input.duration_sec !== undefined)
    out.durationSec = (ALERT_DURATIONS as readonly unknown[]).includes(input.duration_sec)
      ? (input.duration_sec as number)
      : bad();
  if (input.cooldown_min !== undefined) {
    const c = input.cooldown_min;
    out.cooldownMin =
      Number.isInteger(c) && (c as number) >= 0 && (c as number) <= MAX_COOLDOWN_MIN
        ? (c as number)
        : bad();
  }
  if (input.threshold_mode !== undefined)
    out.thresholdMode =
      input.threshold_mode === 'static' || input.threshold_mode === 'core_plus'
        ? input.threshold_mode
        : bad();
  if (input.threshold_offset !== undefined) out.thresholdOffset = finite(input.threshold_offset);
  if (input.clear_threshold !== undefined)
    out.clearThreshold = input.clear_threshold === null ? null : finite(input.clear_threshold);
  if (input.repeat_interval_min !== undefined)
    out.repeatIntervalMin = intIn(input.repeat_interval_min, 0, MAX_REPEAT_INTERVAL_MIN);
  if (input.repeat_max !== undefined)
    out.repeatMax = input.repeat_max === null ? null : intIn(input.repeat_max, 0, MAX_REPEATS);
  return out;
}

/** Cross-field rules that hold for every stored rule. */
export function checkRule(r: RuleFields): RuleFields {
  if (r.thresholdMode === 'core_plus' && !CORE_PLUS_METRICS.has(r.metric)) bad();
  if (r.thresholdMode === 'static' && r.thresholdOffset !== 0) bad();
  if (r.clearThreshold !== null && !clearThresholdValid(r.operator, r.threshold, r.clearThreshold))
    throw new AppError('invalid_clear_threshold');
  return r;
}

/** A full rule for POST: name, metric, operator and threshold are required. */
export function newRuleFields(input: RuleInput): RuleFields {
  const p = parseRuleFields(input);
  if (p.name === undefined || p.metric === undefined || p.operator === undefined) bad();
  if (p.threshold === undefined) bad();
  return checkRule({
    name: p.name!,
    enabled: p.enabled ?? RULE_DEFAULTS.enabled,
    metric: p.metric!,
    operator: p.operator!,
    threshold: p.threshold!,
    durationSec: p.durationSec ?? RULE_DEFAULTS.durationSec,
    cooldownMin: p.cooldownMin ?? RULE_DEFAULTS.cooldownMin,
    thresholdMode: p.thresholdMode ?? RULE_DEFAULTS.thresholdMode,
    thresholdOffset: p.thresholdOffset ?? RULE_DEFAULTS.thresholdOffset,
    clearThreshold: p.clearThreshold ?? RULE_DEFAULTS.clearThreshold,
    repeatIntervalMin: p.repeatIntervalMin ?? RULE_DEFAULTS.repeatIntervalMin,
    repeatMax: p.repeatMax ?? RULE_DEFAULTS.repeatMax,
  });
}

/** Fields whose change makes a new generation (the condition changed). */
export const CONDITION_FIELDS = [
  'metric',
  'operator',
  'threshold',
  'durationSec',
  'thresholdMode',
  'thresholdOffset',
  'clearThreshold',
] as const satisfies ReadonlyArray<keyof RuleFields>;
