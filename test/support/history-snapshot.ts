import {
  DEVICE_METRICS,
  HOST_METRICS,
  requiresDevice,
  type DeviceMetric,
} from '../../src/protocol/history-metrics.js';
import type { HistoryQuery, HistoryRepo } from '../../src/store/ports.js';

/**
 * Every history read of one node over [from, to): each host and device metric (per device and,
 * where allowed, across devices) at raw resolution point by point and as 15-minute and 1-hour
 * ranges with each aggregate, plus the interface samples. Two stores holding the same points
 * answer the same snapshot.
 */
export async function historySnapshot(
  history: HistoryRepo,
  nodeId: number,
  from: number,
  to: number,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const queries: Array<[string, Omit<HistoryQuery, 'source' | 'stepMs' | 'agg'>]> = [];
  for (const metric of HOST_METRICS) queries.push([metric, { nodeId, metric, from, to }]);
  for (const metric of Object.keys(DEVICE_METRICS) as DeviceMetric[]) {
    const kind = DEVICE_METRICS[metric].kind;
    for (const d of await history.devices(nodeId, kind)) {
      queries.push([`${metric}@${d.name}`, { nodeId, metric, device: d.name, from, to }]);
    }
    if (!requiresDevice(metric)) queries.push([metric, { nodeId, metric, from, to }]);
  }
  for (const [name, q] of queries) {
    const read = (source: HistoryQuery['source'], stepMs: number, agg: HistoryQuery['agg']) =>
      history.points({ ...q, source, stepMs, agg });
    out[`${name} raw`] = await read('raw', 1, 'last');
    out[`${name} raw60 min`] = await read('raw', 60_000, 'min');
    out[`${name} 15m avg`] = await read('15m', 900_000, 'avg');
    out[`${name} 1h max`] = await read('1h', 3_600_000, 'max');
    out[`${name} 1h last`] = await read('1h', 3_600_000, 'last');
  }
  out.nic = await history.nicSamples(nodeId, from, to);
  return out;
}
