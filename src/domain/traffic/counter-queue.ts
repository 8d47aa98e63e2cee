/**
 * Interface counters waiting to be stored, as typed-array columns: one entry per interface of
 * an accepted report (node, receive time, interface, rx, tx), 36 bytes each. A minute of a
 * 10,000-node fleet is half a million entries: as objects they would outlive the young
 * generation and be promoted, and the old generation would fill with them between flushes;
 * in columns they are a few large buffers the collector never traces.
 *
 * Columns grow by fixed segments, not by doubling, so a queue holds at most one partly used
 * segment beyond what it needs.
 */

const SEGMENT = 16_384;

interface Segment {
  node: Uint32Array;
  iface: Uint32Array;
  at: Float64Array;
  rx: Float64Array;
  tx: Float64Array;
}

const newSegment = (): Segment => ({
  node: new Uint32Array(SEGMENT),
  iface: new Uint32Array(SEGMENT),
  at: new Float64Array(SEGMENT),
  rx: new Float64Array(SEGMENT),
  tx: new Float64Array(SEGMENT),
});

/** One queued sample (read back for a flush or a read). */
export interface QueuedSample {
  nodeId: number;
  iface: string;
  at: number;
  rx: number;
  tx: number;
}

/** Interface names are stored once; entries hold their index. */
export class IfaceNames {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];

  id(name: string): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.ids.set(name, id);
    }
    return id;
  }

  name(id: number): string {
    return this.names[id] as string;
  }

  /** The index of a name already seen, or undefined. */
  known(name: string): number | undefined {
    return this.ids.get(name);
  }
}

export class CounterQueue {
  private readonly segments: Segment[] = [];
  private count = 0;

  constructor(private readonly names: IfaceNames) {}

  get length(): number {
    return this.count;
  }

  push(nodeId: number, iface: string, at: number, rx: number, tx: number): void {
    const off = this.count % SEGMENT;
    if (off === 0) this.segments.push(newSegment());
    const s = this.segments[this.segments.length - 1] as Segment;
    s.node[off] = nodeId;
    s.iface[off] = this.names.id(iface);
    s.at[off] = at;
    s.rx[off] = rx;
    s.tx[off] = tx;
    this.count++;
  }

  nodeAt(i: number): number {
    return (this.segments[Math.floor(i / SEGMENT)] as Segment).node[i % SEGMENT] as number;
  }

  sample(i: number): QueuedSample {
    const s = this.segments[Math.floor(i / SEGMENT)] as Segment;
    const o = i % SEGMENT;
    return {
      nodeId: s.node[o] as number,
      iface: this.names.name(s.iface[o] as number),
      at: s.at[o] as number,
      rx: s.rx[o] as number,
      tx: s.tx[o] as number,
    };
  }

  /** Entries of one node, optionally one interface, in arrival order. */
  samplesOf(nodeId: number, iface?: string): QueuedSample[] {
    const want = iface === undefined ? undefined : this.names.known(iface);
    if (iface !== undefined && want === undefined) return [];
    const out: QueuedSample[] = [];
    for (let k = 0; k < this.segments.length; k++) {
      const s = this.segments[k] as Segment;
      const n = Math.min(SEGMENT, this.count - k * SEGMENT);
      for (let o = 0; o < n; o++) {
        if (s.node[o] !== nodeId || (want !== undefined && s.iface[o] !== want)) continue;
        out.push(this.sample(k * SEGMENT + o));
      }
    }
    return out;
  }

  /**
   * Entry indices grouped by node, nodes in ascending id, each node's entries in arrival order
   * (a counting sort: no comparator over half a million entries on the HTTP thread).
   */
  byNode(): { nodes: number[]; starts: Uint32Array; order: Uint32Array } {
    const counts = new Map<number, number>();
    for (let i = 0; i < this.count; i++) {
      const n = this.nodeAt(i);
      counts.set(n, (counts.get(n) ?? 0) + 1);
    }
    const nodes = [...counts.keys()].sort((a, b) => a - b);
    const starts = new Uint32Array(nodes.length + 1);
    const next = new Map<number, number>();
    for (let k = 0; k < nodes.length; k++) {
      const n = nodes[k] as number;
      next.set(n, starts[k] as number);
      starts[k + 1] = (starts[k] as number) + (counts.get(n) as number);
    }
    const order = new Uint32Array(this.count);
    for (let i = 0; i < this.count; i++) {
      const n = this.nodeAt(i);
      const at = next.get(n) as number;
      order[at] = i;
      next.set(n, at + 1);
    }
    return { nodes, starts, order };
  }
}
