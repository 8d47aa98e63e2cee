import type { TrafficCollector } from '../../src/domain/traffic/collector.js';
import type { TrafficBatch, TrafficIfaceRow, TrafficRepo } from '../../src/store/ports.js';

/**
 * A traffic store for collector tests: keeps each interface's cursor and records each batch
 * (one transaction each); the rest of the repository is not used by the collector's flush.
 */
export function fakeTrafficRepo() {
  const ifaces = new Map<string, TrafficIfaceRow>();
  const batches: TrafficBatch[] = [];
  const repo = {
    ifaceStates: async () => [...ifaces.values()],
    ifaces: async (nodeId: number) => [...ifaces.values()].filter((r) => r.nodeId === nodeId),
    apply: async (b: TrafficBatch) => {
      batches.push(b);
      for (const i of b.ifaces) ifaces.set(`${i.nodeId}/${i.iface}`, i);
    },
  } as unknown as TrafficRepo;
  return { repo, batches, ifaces };
}

/**
 * `reports` reports of every node in `nodes` from the `from`-th on, interleaved as they arrive
 * 3 s apart from `t0`, each with two interfaces whose counters grow.
 */
export function feedReports(
  c: TrafficCollector,
  t0: number,
  nodes: number[],
  reports: number,
  from = 0,
): void {
  for (let k = from; k < from + reports; k++) {
    for (const nodeId of nodes) {
      c.enqueue({
        nodeId,
        receivedAt: t0 + k * 3000 + nodeId,
        ifaces: [
          { name: 'eth0', rx: k * 1000, tx: k * 10 },
          { name: 'eth1', rx: k * 7, tx: k },
        ],
      });
    }
  }
}
