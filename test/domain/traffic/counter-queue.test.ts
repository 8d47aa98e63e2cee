import { describe, expect, it } from 'vitest';
import { CounterQueue, IfaceNames } from '../../../src/domain/traffic/counter-queue.js';

describe('CounterQueue', () => {
  it('keeps samples in columns across segments and reads them back exactly', () => {
    const q = new CounterQueue(new IfaceNames());
    // More than one 16,384-entry segment, counters past 2^32 and times in epoch milliseconds.
    const n = 40_000;
    for (let i = 0; i < n; i++) {
      q.push(i % 7, i % 2 ? 'eth0' : 'wlan0', 1_790_000_000_000 + i, 2 ** 40 + i, i * 3);
    }
    expect(q.length).toBe(n);
    expect(q.sample(0)).toEqual({
      nodeId: 0,
      iface: 'wlan0',
      at: 1_790_000_000_000,
      rx: 2 ** 40,
      tx: 0,
    });
    expect(q.sample(n - 1)).toEqual({
      nodeId: (n - 1) % 7,
      iface: 'eth0',
      at: 1_790_000_000_000 + n - 1,
      rx: 2 ** 40 + n - 1,
      tx: (n - 1) * 3,
    });
    const three = q.samplesOf(3, 'eth0');
    expect(three.every((s) => s.nodeId === 3 && s.iface === 'eth0')).toBe(true);
    expect(three.map((s) => s.at)).toEqual([...three.map((s) => s.at)].sort((a, b) => a - b));
    expect(q.samplesOf(3).length).toBe(
      Array.from({ length: n }, (_, i) => i).filter((i) => i % 7 === 3).length,
    );
    expect(q.samplesOf(3, 'never-seen')).toEqual([]);
  });

  it('groups entries by node in ascending id, each node in arrival order', () => {
    const q = new CounterQueue(new IfaceNames());
    const arrivals = [9, 2, 9, 5, 2, 9];
    arrivals.forEach((node, i) => q.push(node, 'eth0', 1000 + i, i, i));
    const { nodes, starts, order } = q.byNode();
    expect(nodes).toEqual([2, 5, 9]);
    expect([...starts]).toEqual([0, 2, 3, 6]);
    expect([...order]).toEqual([1, 4, 3, 0, 2, 5]);
  });
});
