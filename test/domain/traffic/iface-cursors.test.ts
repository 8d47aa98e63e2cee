import { describe, expect, it } from 'vitest';
import { IfaceNames } from '../../../src/domain/traffic/counter-queue.js';
import { IfaceCursors } from '../../../src/domain/traffic/iface-cursors.js';
import type { TrafficIfaceRow } from '../../../src/store/ports.js';

/** A small deterministic generator (xorshift32), so a failure repeats. */
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const key = (nodeId: number, iface: string) => `${nodeId}\u0000${iface}`;

describe('interface cursors in typed arrays', () => {
  it('answers as the Map of rows they replace, through growth past their first capacity', () => {
    const names = new IfaceNames();
    const model = new Map<string, TrafficIfaceRow>();
    const seeded: TrafficIfaceRow[] = [
      { nodeId: 7, iface: 'eth0', firstAt: 1, lastAt: 2, lastRx: 3.5, lastTx: 2 ** 53 - 1 },
      { nodeId: 2 ** 31 + 5, iface: 'wg0', firstAt: 10, lastAt: 20, lastRx: 0, lastTx: 1e18 },
    ];
    for (const r of seeded) model.set(key(r.nodeId, r.iface), r);
    const cursors = new IfaceCursors(names, seeded);
    const random = rng(21);
    // 3,000 nodes (node ids sparse and beyond 2^31) × up to 5 interfaces: far past the
    // initial 1,024 nodes and slots, with every row rewritten several times.
    const nodeIds = Array.from({ length: 3000 }, (_, i) =>
      i % 3 === 0 ? 2 ** 31 + i * 17 : i * 5,
    );
    const ifaces = ['eth0', 'eth1', 'ens3', 'wg0', 'lo'];
    for (let op = 0; op < 20_000; op++) {
      const nodeId = nodeIds[Math.floor(random() * nodeIds.length)]!;
      const iface = ifaces[Math.floor(random() * ifaces.length)]!;
      if (random() < 0.5) {
        const row: TrafficIfaceRow = {
          nodeId,
          iface,
          firstAt: Math.floor(random() * 1e12),
          lastAt: Math.floor(random() * 1e12),
          lastRx: random() * 1e15,
          lastTx: Math.floor(random() * 2 ** 52),
        };
        cursors.set(row);
        model.set(key(nodeId, iface), row);
      } else {
        expect(cursors.get(nodeId, iface)).toEqual(model.get(key(nodeId, iface)));
      }
    }
    expect(cursors.size).toBe(model.size);
    expect(model.size).toBeGreaterThan(5_000);
    for (const row of model.values()) expect(cursors.get(row.nodeId, row.iface)).toEqual(row);
    // Unknown nodes and names, and a known name on a node that never had it.
    expect(cursors.get(999_999, 'eth0')).toBeUndefined();
    expect(cursors.get(7, 'never-seen')).toBeUndefined();
    expect(cursors.get(7, 'lo')).toEqual(model.get(key(7, 'lo')));
  });

  it('keeps interfaces of different nodes apart when names are shared with the queue', () => {
    const names = new IfaceNames();
    names.id('eth0'); // the queue saw it first
    const cursors = new IfaceCursors(names);
    cursors.set({ nodeId: 1, iface: 'eth0', firstAt: 1, lastAt: 1, lastRx: 1, lastTx: 1 });
    cursors.set({ nodeId: 2, iface: 'eth0', firstAt: 2, lastAt: 2, lastRx: 2, lastTx: 2 });
    cursors.set({ nodeId: 1, iface: 'eth0', firstAt: 1, lastAt: 5, lastRx: 5, lastTx: 5 });
    expect(cursors.size).toBe(2);
    expect(cursors.get(1, 'eth0')?.lastAt).toBe(5);
    expect(cursors.get(2, 'eth0')?.lastAt).toBe(2);
  });
});
