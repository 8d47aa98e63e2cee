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
