import type { TrafficIfaceRow } from '../../store/ports.js';
import type { IfaceNames } from './counter-queue.js';

const INITIAL_CAPACITY = 1024;

/**
 * Each interface's last stored sample (the flush pairs the next sample with it), as typed-array
 * columns: 40 bytes per interface in a few buffers the garbage collector never traces. As a
 * `Map` of `nodeId\0iface` strings to row objects, a 10,000-node fleet's 30,000 interfaces were
 * 30,000 key strings, 30,000 objects and 120,000 heap numbers on the HTTP thread's old
 * generation (≈ 6 MB, marked at every full collection: docs/ingest-performance.md, "Memory").
 *
 * Nodes get a dense index on first sight; a node's interfaces are a short chain of slots
 * (a handful per node), found by walking it. Slots are never freed: the collector drops the
 * whole structure when it reloads cursors from the store, which is how a node deleted meanwhile
 * (whose samples the flush skips) leaves it.
 */
export class IfaceCursors {
  private readonly nodeIndex = new Map<number, number>();
  /** First slot of each dense node index, or -1. */
  private head = new Int32Array(INITIAL_CAPACITY).fill(-1);
  private count = 0;
  private iface = new Uint32Array(INITIAL_CAPACITY);
  /** The next slot of the same node, or -1. */
  private next = new Int32Array(INITIAL_CAPACITY);
  private firstAt = new Float64Array(INITIAL_CAPACITY);
  private lastAt = new Float64Array(INITIAL_CAPACITY);
  private lastRx = new Float64Array(INITIAL_CAPACITY);
  private lastTx = new Float64Array(INITIAL_CAPACITY);

  constructor(
    private readonly names: IfaceNames,
    rows: Iterable<TrafficIfaceRow> = [],
  ) {
    for (const r of rows) this.set(r);
  }

  /** Interfaces held. */
  get size(): number {
    return this.count;
  }

  get(nodeId: number, iface: string): TrafficIfaceRow | undefined {
    const slot = this.find(nodeId, iface);
    if (slot < 0) return undefined;
    return {
      nodeId,
      iface,
      firstAt: this.firstAt[slot] as number,
      lastAt: this.lastAt[slot] as number,
      lastRx: this.lastRx[slot] as number,
      lastTx: this.lastTx[slot] as number,
    };
  }

  /** Adds the row's interface or replaces what it held. */
  set(row: TrafficIfaceRow): void {
    let slot = this.find(row.nodeId, row.iface);
    if (slot < 0) slot = this.add(row.nodeId, this.names.id(row.iface));
    this.firstAt[slot] = row.firstAt;
    this.lastAt[slot] = row.lastAt;
    this.lastRx[slot] = row.lastRx;
    this.lastTx[slot] = row.lastTx;
  }

  private find(nodeId: number, iface: string): number {
    const n = this.nodeIndex.get(nodeId);
    const id = this.names.known(iface);
    if (n === undefined || id === undefined) return -1;
    for (let s = this.head[n] as number; s >= 0; s = this.next[s] as number) {
      if (this.iface[s] === id) return s;
    }
    return -1;
  }

  private add(nodeId: number, ifaceId: number): number {
    let n = this.nodeIndex.get(nodeId);
    if (n === undefined) {
      n = this.nodeIndex.size;
      this.nodeIndex.set(nodeId, n);
      if (n === this.head.length) {
        const head = new Int32Array(n * 2).fill(-1);
        head.set(this.head);
        this.head = head;
      }
    }
    if (this.count === this.iface.length) this.grow();
    const slot = this.count++;
    this.iface[slot] = ifaceId;
    this.next[slot] = this.head[n] as number;
    this.head[n] = slot;
    return slot;
  }

  private grow(): void {
    const cap = this.iface.length * 2;
    const wider = <T extends Uint32Array | Int32Array | Float64Array>(
      a: T,
      make: (n: number) => T,
    ) => {
      const b = make(cap);
      b.set(a);
      return b;
    };
    this.iface = wider(this.iface, (n) => new Uint32Array(n));
    this.next = wider(this.next, (n) => new Int32Array(n));
    this.firstAt = wider(this.firstAt, (n) => new Float64Array(n));
    this.lastAt = wider(this.lastAt, (n) => new Float64Array(n));
    this.lastRx = wider(this.lastRx, (n) => new Float64Array(n));
    this.lastTx = wider(this.lastTx, (n) => new Float64Array(n));
  }
}
