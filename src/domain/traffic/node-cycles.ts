import type { NodesRepo } from '../../store/ports.js';
import { cycleAt, type NodeCycle } from './cycle-bounds.js';
import { nodeCycle } from './reads.js';

const same = (a: NodeCycle | undefined, b: NodeCycle | undefined) =>
  JSON.stringify(a) === JSON.stringify(b);

/**
 * Every live node's billing cycle, loaded once and refreshed on node events, so the
 * materialiser does not query each node on every run.
 */
export class NodeCycles {
  private map: Map<number, NodeCycle> | undefined;

  constructor(
    private readonly nodes: NodesRepo,
    private readonly appZone: string,
  ) {}

  async get(nodeId: number): Promise<NodeCycle | undefined> {
    if (!this.map) {
      this.map = new Map((await this.nodes.list()).map((n) => [n.id, nodeCycle(n, this.appZone)]));
    }
    if (!this.map.has(nodeId)) {
      // A node created since the load.
      const node = await this.nodes.get(nodeId);
      if (node) this.map.set(nodeId, nodeCycle(node, this.appZone));
    }
    return this.map.get(nodeId);
  }

  /**
   * Re-reads one node. When its cycle changed, returns where Lite accumulators must be
   * replayed from: the earlier of the old and new current-cycle starts (reference §6.8).
   */
  async refresh(nodeId: number, now: number): Promise<number | undefined> {
    const before = this.map?.get(nodeId);
    const node = await this.nodes.get(nodeId);
    const after = node ? nodeCycle(node, this.appZone) : undefined;
    if (after) this.map?.set(nodeId, after);
    else this.map?.delete(nodeId);
    if (!before || !after || same(before, after)) return undefined;
    return Math.min(cycleAt(before, now).start, cycleAt(after, now).start);
  }
}
