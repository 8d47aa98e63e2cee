import type { NodeView } from '../../protocol/front-view.js';
import { ALERT_METRICS, coreCount, metricValue, type AlertMetric } from './catalog.js';

/**
 * What alert rules read from one report: each metric's value (absent: no value) and the core
 * count. Computed beside the report's decode, off the HTTP thread, and small enough to cross
 * threads with the report's answer.
 */
export interface AlertReadings {
  cores: number;
  values: Partial<Record<AlertMetric, number>>;
}

export function alertReadings(view: NodeView): AlertReadings {
  const values: Partial<Record<AlertMetric, number>> = {};
  for (const m of ALERT_METRICS) {
    const v = metricValue(m, view);
    if (v !== undefined) values[m] = v;
  }
  return { cores: coreCount(view), values };
}
