import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TrafficCounterRow } from '../../../src/store/ports.js';
import { migrateSqlite } from '../../../src/store/sqlite/migrate.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/open.js';

const T0 = Date.UTC(2026, 10, 24, 12);
const MIN = 60_000;
let store: SqliteStore;

beforeEach(() => {
  store = openSqliteStore(':memory:', T0);
});
afterEach(async () => store.close());

const count = (sql: string) => (store.raw.prepare(sql).get() as { n: number }).n;

/** Puts the database back to the state before 0016: a row per counter sample (0005, 0015). */
function unapply0016(db: SqliteStore['raw']): void {
  db.exec(`DROP TABLE traffic_counter_minute;
    CREATE TABLE traffic_counter (
      node_id INTEGER NOT NULL,
      iface TEXT NOT NULL,
      received_at INTEGER NOT NULL,
      rx INTEGER NOT NULL,
      tx INTEGER NOT NULL,
      PRIMARY KEY (node_id, iface, received_at)
    ) STRICT, WITHOUT ROWID;
    DELETE FROM schema_migrations WHERE id = '0016_traffic_counter_by_minute'`);
}

describe('traffic counters by minute (migration 0016)', () => {
  it('stores a flush as one row per node and minute, in minute order', async () => {
    const counters: TrafficCounterRow[] = [];
    for (const nodeId of [1, 2]) {
      for (let k = 0; k < 30; k++) {
        for (const iface of ['eth0', 'eth1']) {
          counters.push({ nodeId, iface, at: T0 + 30_000 + k * 3000, rx: k, tx: k });
        }
      }
    }
    await store.traffic.apply({ counters, ifaces: [], facts: [], usage: [] });
    // 30 samples from 12:00:30 every 3 s: two minutes per node.
    expect(
      store.raw
        .prepare('SELECT slot - ? AS m, node_id AS n FROM traffic_counter_minute')
        .all(T0 / MIN),
    ).toEqual([
      { m: 0, n: 1 },
      { m: 0, n: 2 },
      { m: 1, n: 1 },
      { m: 1, n: 2 },
    ]);
    // A later flush with samples of the same minute appends to its row.
    await store.traffic.apply({
      counters: [{ nodeId: 1, iface: 'eth0', at: T0 + 2 * MIN - 1, rx: 99, tx: 99 }],
      ifaces: [],
      facts: [],
      usage: [],
    });
    expect(count('SELECT count(*) AS n FROM traffic_counter_minute')).toBe(4);
    const last = await store.traffic.counters(1, T0 + MIN, T0 + 2 * MIN);
    expect(last.at(-1)).toEqual({ nodeId: 1, iface: 'eth0', at: T0 + 2 * MIN - 1, rx: 99, tx: 99 });
    expect(last).toHaveLength(2 * 20 + 1);
  });

  it('prunes whole minutes before the cut-off, oldest first, up to the limit per call', async () => {
    const counters: TrafficCounterRow[] = [];
    for (let node = 1; node <= 4; node++) {
      for (let m = 0; m < 10; m++)
        counters.push({ nodeId: node, iface: 'eth0', at: T0 + m * MIN, rx: m, tx: m });
    }
    await store.traffic.apply({ counters, ifaces: [], facts: [], usage: [] });
    const deleted: number[] = [];
    for (;;) {
      const n = await store.traffic.prune(T0 + 5 * MIN + 1, 15);
      deleted.push(n);
      if (n < 15) break;
    }
    // Minutes 0–4 of four nodes; minute 5 holds the cut-off and stays.
    expect(deleted).toEqual([15, 5]);
    expect((await store.traffic.counters(3, 0, T0 + 99 * MIN)).map((c) => c.rx)).toEqual([
      5, 6, 7, 8, 9,
    ]);
  });

  it('moves a populated database into minutes, and every counter read answers the same', async () => {
    const db = store.raw;
    unapply0016(db);
    const insert = db.prepare(
      'INSERT INTO traffic_counter (node_id, iface, received_at, rx, tx) VALUES (?, ?, ?, ?, ?)',
    );
    const ifaceRows = new Map<string, { first: number; last: number; rx: number; tx: number }>();
    let rows = 0;
    // Three nodes, two days, irregular gaps, a node silent for half a day, a counter reset and
    // counters past 2^49.
    for (let i = 0; i < 6000; i++) {
      for (const node of [1, 2, 3]) {
        if (node === 3 && i > 1000 && i < 3000) continue;
        for (const iface of node === 2 ? ['eth0'] : ['eth0', 'wg0']) {
          const at = T0 - 2 * 86_400_000 + i * 29_000 + ((i * node * 53) % 2900);
          const big = node === 1 && iface === 'wg0' ? 2 ** 50 : 0;
          const rx = big + (i > 4000 && node === 2 ? i - 4000 : i * 1_000_003);
          const tx = i * 7;
          insert.run(node, iface, at, rx, tx);
          rows++;
          const k = `${node}/${iface}`;
          const r = ifaceRows.get(k);
          ifaceRows.set(k, { first: r?.first ?? at, last: at, rx, tx });
        }
      }
    }
    const ifaces = [...ifaceRows].map(([k, r]) => {
      const [node, iface] = k.split('/') as [string, string];
      return {
        nodeId: Number(node),
        iface,
        firstAt: r.first,
        lastAt: r.last,
        lastRx: r.rx,
        lastTx: r.tx,
      };
    });
    await store.traffic.apply({ counters: [], ifaces, facts: [], usage: [] });
    const reads = () => {
      const asOld = (sql: string, ...p: number[]) => db.prepare(sql).all(...p);
      return { asOld };
    };
    const before = {
      all: [1, 2, 3].map((n) =>
        reads().asOld(
          `SELECT node_id AS nodeId, iface, received_at AS at, rx, tx FROM traffic_counter
           WHERE node_id = ? ORDER BY received_at, iface`,
          n,
        ),
      ),
    };

    expect(migrateSqlite(db, T0).applied).toEqual(['0016_traffic_counter_by_minute']);
    expect(count(`SELECT count(*) AS n FROM sqlite_master WHERE name = 'traffic_counter'`)).toBe(0);
    let decoded = 0;
    for (const [i, node] of [1, 2, 3].entries()) {
      const all = await store.traffic.counters(node, 0, T0 + 86_400_000);
      decoded += all.length;
      const sorted = [...all].sort((a, b) => a.at - b.at || (a.iface < b.iface ? -1 : 1));
      expect(sorted).toEqual(before.all[i]);
    }
    expect(decoded).toBe(rows);
    // Around a window inside node 3's silence: the samples just before and after it.
    const from = T0 - 2 * 86_400_000 + 1500 * 29_000;
    const around = await store.traffic.countersAround(3, from, from + 3_600_000);
    const eth0 = before.all[2]!.filter((r) => (r as { iface: string }).iface === 'eth0') as Array<{
      at: number;
    }>;
    const prev = eth0.filter((r) => r.at < from).at(-1);
    const next = eth0.find((r) => r.at >= from + 3_600_000);
    expect(around.get('eth0')?.map((c) => c.at)).toEqual([prev?.at, next?.at]);
    expect(await store.traffic.counterRange(1)).toEqual({
      first: (before.all[0]![0] as { at: number }).at,
      last: ifaceRows.get('1/wg0')!.last,
    });
  });
});
