import type { NodesRepo, TrafficRepo } from '../../store/ports.js';
import type { TrafficSettingsService } from '../settings/traffic-settings.js';
import { recentCycles } from './cycle-bounds.js';
import { nodeCycle } from './reads.js';
import { billingStats, SEAL_AFTER_MS } from './stats.js';

/**
 * Stores sealed monthly snapshots of closed Billing cycles (48 h after their end) while the
 * facts still cover them, so monthly history (up to 24 cycles) outlives the 5-minute facts.
 */
export async function storeMonthlySnapshots(d: {
  nodes: NodesRepo;
  traffic: TrafficRepo;
  settings: TrafficSettingsService;
  appZone: string;
  retentionMs: number;
  now: number;
}): Promise<number> {
  if ((await d.settings.get()).usage_mode !== 'billing') return 0;
  let stored = 0;
  for (const node of await d.nodes.list()) {
    const cycle = nodeCycle(node, d.appZone);
    const ifaces = await d.traffic.ifaces(node.id);
    if (ifaces.length === 0) continue;
    // Closed cycles whose whole span is still within retention.
    const closed = recentCycles(cycle, d.now, 4).filter(
      (w) => w.end + SEAL_AFTER_MS <= d.now && w.start >= d.now - d.retentionMs,
    );
    for (const i of ifaces) {
      // Keyed by both bounds: a cycle edit can keep a cycle's start and move its end, and the
      // snapshot sealed under the old bounds must then be replaced.
      const have = new Set(
        (await d.traffic.snapshots(node.id, i.iface)).map((s) => `${s.cycleStart}:${s.cycleEnd}`),
      );
      for (const w of closed) {
        if (have.has(`${w.start}:${w.end}`)) continue;
        const facts = await d.traffic.facts(node.id, i.iface, w.start, w.end);
        if (facts.length === 0) continue;
        const raw = billingStats(facts, {
          start: w.start,
          end: w.end,
          now: d.now,
          firstSampleAt: i.firstAt,
          p95Enabled: node.trafficP95Enabled,
        });
        await d.traffic.putSnapshot(node.id, {
          iface: i.iface,
          cycleStart: w.start,
          cycleEnd: w.end,
          statsJson: JSON.stringify(raw),
          sealed: true,
        });
        stored++;
      }
    }
  }
  return stored;
}
