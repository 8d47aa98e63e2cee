import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/open.js';

const T0 = Date.UTC(2026, 10, 24, 12);
let store: SqliteStore;

beforeEach(() => {
  store = openSqliteStore(':memory:', T0);
});
afterEach(async () => store.close());

const count = (sql: string) => (store.raw.prepare(sql).get() as { n: number }).n;

describe('traffic counters without a time index (migration 0015)', () => {
  it('has no index on received_at: a minute stored node by node would touch all of it', () => {
    expect(
      count(`SELECT count(*) AS n FROM sqlite_master WHERE name = 'traffic_counter_time'`),
    ).toBe(0);
  });

  it('prunes every interface through the primary key, resuming where a call stopped', async () => {
    const counters = [];
    const ifaces = [];
    for (let node = 1; node <= 4; node++) {
      for (const iface of ['eth0', 'eth1']) {
        for (let k = 0; k < 10; k++)
          counters.push({ nodeId: node, iface, at: T0 + k, rx: k, tx: k });
        ifaces.push({ nodeId: node, iface, firstAt: T0, lastAt: T0 + 9, lastRx: 9, lastTx: 9 });
      }
    }
    await store.traffic.apply({ counters, ifaces, facts: [], usage: [] });
    // Limit 15: each call stops after the interface that reaches it (5 old counters each).
    const deleted: number[] = [];
    for (;;) {
      const n = await store.traffic.prune(T0 + 5, 15);
      deleted.push(n);
      if (n < 15) break;
    }
    expect(deleted).toEqual([15, 15, 10]);
    expect(count('SELECT count(*) AS n FROM traffic_counter')).toBe(8 * 5);
    expect(count(`SELECT min(received_at) - ${T0} AS n FROM traffic_counter`)).toBe(5);
  });
});
