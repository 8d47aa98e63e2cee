import type { AlertRuleRow } from '../../store/ports.js';
import type { AlertRule } from './rule.js';
import { checkRule, newRuleFields } from './rule-input.js';

/** A stored rule that still passes validation, as evaluation sees it; undefined when invalid. */
export function compile(row: AlertRuleRow): AlertRule | undefined {
  try {
    const fields = checkRule(
      newRuleFields({
        name: row.name,
        enabled: row.enabled,
        metric: row.metric,
        operator: row.operator,
        threshold: row.threshold,
        duration_sec: row.durationSec,
        cooldown_min: row.cooldownMin,
        threshold_mode: row.thresholdMode,
        threshold_offset: row.thresholdOffset,
        clear_threshold: row.clearThreshold,
        repeat_interval_min: row.repeatIntervalMin,
        repeat_max: row.repeatMax,
      }),
    );
    return {
      ...fields,
      id: row.id,
      generation: row.generation,
      generationAt: row.generationAt,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  } catch {
    return undefined;
  }
}
