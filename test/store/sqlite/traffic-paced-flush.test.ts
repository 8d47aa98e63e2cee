import { afterEach, describe, expect, it } from 'vitest';
import { TrafficCollector } from '../../../src/domain/traffic/collector.js';
import type { NodeCycle } from '../../../src/domain/traffic/cycle-bounds.js';
import { silentLogger } from '../../../src/platform/logger.js';
import { BACKGROUND_PACE, StepPacer } from '../../../src/platform/step-pacer.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/open.js';
import { decodeCounters } from '../../../src/store/sqlite/traffic-counter-codec.js';

/**
 * A paced flush (chunks cut down to a sixteenth while they run long) leaves the database as an
 * unpaced one does: counters by minute, cursors with their open buckets, held and moved facts,
 * cycle usage (docs/ingest-performance.md, "Traffic flush pacing").
 */

const T0 = Date.UTC(2026, 10, 24, 12);
const CYCLE: NodeCycle = { mode: 'calendar_month', startDay: 1, anchorDate: '', zone: 'UTC' };
const NODES = 50;

const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

function collectorOn(store: SqliteStore, stepMs?: number) {
  let chunks = 0;
  const pacer =
    stepMs === undefined
      ? undefined
      : new StepPacer(
          () => 0,
          async () => {},
          BACKGROUND_PACE,
        );
  const c = new TrafficCollector(
    store.traffic,
    async () => CYCLE,
    silentLogger,
    async (b) => {
      chunks++;
      await store.traffic.apply(b);
      return stepMs;
    },
    undefined,
    pacer,
  );
  return { c, chunks: () => chunks };
}

/** Minute `m` of reports: every node every 3 s, three interfaces, in arrival order. */
function feed(c: TrafficCollector, m: number) {
  for (let s = m * 60; s < (m + 1) * 60; s += 3) {
    for (let nodeId = 1; nodeId <= NODES; nodeId++) {
      const at = T0 + s * 1000 + nodeId * 37;
      c.enqueue({
        nodeId,
        receivedAt: at,
        ifaces: [
          { name: 'eth0', rx: s * (1_000 + nodeId), tx: s * 400 },
          // A counter reset in minute 7 on one interface.
          { name: 'eth1', rx: m === 7 && nodeId % 5 === 0 ? s : s * 50 + 9_000, tx: s * 20 },
          { name: 'lo', rx: s, tx: s },
        ],
      });
    }
  }
}

function dump(store: SqliteStore) {
  const all = (sql: string) => store.raw.prepare(sql).all();
  return {
    counters: (
      all(
        'SELECT slot, node_id, data FROM traffic_counter_minute ORDER BY slot, node_id',
      ) as Array<{
        slot: number;
        node_id: number;
        data: Uint8Array;
      }>
    ).map((r) => ({
      slot: r.slot,
      node: r.node_id,
      samples: decodeCounters(r.data).sort((a, b) => a.at - b.at || a.iface.localeCompare(b.iface)),
    })),
    ifaces: all('SELECT * FROM traffic_iface ORDER BY node_id, iface'),
    facts: all('SELECT * FROM traffic_5m ORDER BY node_id, iface, bucket'),
    held: all('SELECT * FROM traffic_5m_held ORDER BY node_id, iface'),
    usage: all('SELECT * FROM traffic_cycle_usage ORDER BY node_id, iface, cycle_start'),
  };
}

describe('paced traffic flush on SQLite', () => {
  it('stores the same rows as an unpaced flush, over bucket closes and held moves', async () => {
    const a = openSqliteStore(':memory:', T0);
    const b = openSqliteStore(':memory:', T0);
    stores.push(a, b);
    const paced = collectorOn(a, 100); // every chunk "too long": a sixteenth from the 5th on
    const plain = collectorOn(b);
    // 25 minutes flushed once a minute: five buckets closed, facts held and moved in turn.
    for (let m = 0; m < 25; m++) {
      for (const { c } of [paced, plain]) {
        feed(c, m);
        await c.flush();
      }
    }
    expect(paced.c.lastFlush.smallestScale).toBe(1 / 16);
    expect(paced.chunks()).toBeGreaterThan(plain.chunks() * 5);
    const stored = dump(a);
    expect(stored.facts.length).toBeGreaterThan(0);
    expect(stored.held.length).toBeGreaterThan(0);
    expect(stored.counters.reduce((n, r) => n + r.samples.length, 0)).toBe(25 * 20 * NODES * 3);
    expect(stored).toEqual(dump(b));
  });
});
