import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/open.js';
import { checkpointDelay, MetricsEngine } from '../../src/store/sqlite/metrics-engine.js';
import { metricsWrite } from '../support/metrics-writes.js';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
let store: SqliteStore;
let now = T0;
let engine: MetricsEngine;

beforeEach(() => {
  store = openSqliteStore(':memory:', 0);
  now = T0;
  engine = new MetricsEngine(store.raw, () => now);
  for (const id of [1, 2]) {
    store.raw
      .prepare(
        "INSERT INTO nodes (id, name, secret_enc, created_at, updated_at) VALUES (?, 'n', 'x', 0, 0)",
      )
      .run(id);
  }
});
afterEach(async () => store.close());

const q = <T>(sql: string, ...args: unknown[]) => store.raw.prepare(sql).all(...args) as T[];
const rawTimes = (nodeId: number) =>
  q<{ received_at: number }>(
    'SELECT received_at FROM metrics_raw WHERE node_id = ? ORDER BY received_at',
    nodeId,
  ).map((r) => r.received_at);
const current = (nodeId: number) =>
  q<{ received_at: number; first_received_at: number; runtime_json: string }>(
    'SELECT received_at, first_received_at, runtime_json FROM node_current WHERE node_id = ?',
    nodeId,
  )[0];

describe('MetricsEngine.commitBatch', () => {
  it('spreads the rewrite of stored projections over 30 to 45 s by node', () => {
    const delays = Array.from({ length: 1000 }, (_, i) => checkpointDelay(i + 1));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(30_000);
    expect(Math.max(...delays)).toBeLessThan(45_000);
    expect(new Set(delays.map((d) => Math.floor(d / 1000))).size).toBe(15);
  });

  it('stores one raw row per report; the stored projection is rewritten once it is 30+ s old', () => {
    const out = engine.commitBatch([metricsWrite(1, T0), metricsWrite(1, T0 + 3000, { seq: 1 })]);
    expect(out).toEqual(['current', 'current']);
    expect(rawTimes(1)).toEqual([T0, T0 + 3000]);
    expect(current(1)).toMatchObject({ received_at: T0, first_received_at: T0 });
    expect(engine.commitBatch([metricsWrite(1, T0 + checkpointDelay(1) - 1)])).toEqual(['current']);
    expect(current(1)?.received_at).toBe(T0);
    engine.commitBatch([metricsWrite(1, T0 + checkpointDelay(1), { seq: 7 })]);
    expect(current(1)).toMatchObject({
      received_at: T0 + checkpointDelay(1),
      first_received_at: T0,
    });
    expect(JSON.parse(current(1)!.runtime_json)).toEqual({
      receivedAt: T0 + checkpointDelay(1),
      seq: 7,
    });
  });

  it('keeps receive order across a restart: the stored projection seeds the order', () => {
    engine.commitBatch([metricsWrite(1, T0 + 3000)]);
    const restarted = new MetricsEngine(store.raw, () => now);
    expect(restarted.commitBatch([metricsWrite(1, T0 + 1000)])).toEqual(['history']);
    expect(restarted.commitBatch([metricsWrite(1, T0 + 6000)])).toEqual(['current']);
    expect(rawTimes(1)).toEqual([T0 + 1000, T0 + 3000, T0 + 6000]);
  });

  it('forgets the receive order of a batch that rolled back', () => {
    store.raw.exec(`CREATE TRIGGER fail BEFORE INSERT ON metrics_raw WHEN NEW.node_id = 2
      BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
    expect(() => engine.commitBatch([metricsWrite(1, T0 + 3000), metricsWrite(2, T0)])).toThrow(
      'disk full',
    );
    store.raw.exec('DROP TRIGGER fail');
    expect(rawTimes(1)).toEqual([]);
    expect(engine.commitBatch([metricsWrite(1, T0 + 1000)])).toEqual(['current']);
    expect(current(1)?.received_at).toBe(T0 + 1000);
  });

  it('orders within one batch too, whatever the arrival order', () => {
    const out = engine.commitBatch([
      metricsWrite(1, T0 + 6000, { seq: 3 }),
      metricsWrite(1, T0 + 3000, { seq: 2 }),
      metricsWrite(2, T0 + 1000),
    ]);
    expect(out).toEqual(['current', 'history', 'current']);
    expect(current(1)?.received_at).toBe(T0 + 6000);
  });

  it('keeps the first current-row time across later reports (uptime observation start)', () => {
    engine.commitBatch([metricsWrite(1, T0)]);
    engine.commitBatch([metricsWrite(1, T0 + 60_000)]);
    expect(current(1)?.first_received_at).toBe(T0);
  });

  it('stores two reports of one node received in the same millisecond', () => {
    const out = engine.commitBatch([metricsWrite(1, T0), metricsWrite(1, T0, { seq: 1 })]);
    expect(out).toEqual(['current', 'current']);
    expect(rawTimes(1)).toEqual([T0, T0 + 1]);
  });

  it('leaves out entries whose deadline passed before the batch started', () => {
    now = T0 + 5001;
    const out = engine.commitBatch([
      metricsWrite(1, T0),
      metricsWrite(2, T0 + 2000, { deadline: T0 + 7000 }),
    ]);
    expect(out).toEqual(['expired', 'current']);
    expect(rawTimes(1)).toEqual([]);
    expect(current(1)).toBeUndefined();
    expect(rawTimes(2)).toEqual([T0 + 2000]);
  });

  it('rolls an entry back out when its deadline passes during the transaction', () => {
    let readings = 0;
    const late = new MetricsEngine(store.raw, () => (++readings === 1 ? T0 : T0 + 5001));
    const out = late.commitBatch([
      metricsWrite(1, T0),
      metricsWrite(2, T0 + 4000, { deadline: T0 + 9000 }),
    ]);
    expect(out).toEqual(['expired', 'current']);
    expect(rawTimes(1)).toEqual([]);
    expect(current(1)).toBeUndefined();
    // Devices first seen by the rolled-back entry are not left behind either.
    expect(q('SELECT * FROM metric_devices WHERE node_id = 1')).toEqual([]);
    expect(rawTimes(2)).toEqual([T0 + 4000]);
    // The registry forgot the rolled-back ids: a later report gets consistent ids again.
    late.commitBatch([metricsWrite(1, T0 + 6000, { deadline: T0 + 20_000 })]);
    expect(q('SELECT count(*) AS n FROM metric_devices WHERE node_id = 1')).toEqual([{ n: 12 }]);
  });

  it('names each device once per node in the dictionary, with ref and alternative name', () => {
    engine.commitBatch([metricsWrite(1, T0), metricsWrite(1, T0 + 3000, { seq: 1 })]);
    const devices = q<{ kind: number; name: string; ref: string; alt: string }>(
      'SELECT kind, name, ref, alt FROM metric_devices WHERE node_id = 1 ORDER BY kind, name',
    );
    expect(devices).toEqual([
      { kind: 1, name: 'docker0', ref: '', alt: '' },
      { kind: 1, name: 'eth0', ref: '', alt: '' },
      { kind: 1, name: 'eth1', ref: '', alt: '' },
      { kind: 2, name: 'dm-0', ref: 'lvm:vg0/backup', alt: '' },
      { kind: 2, name: 'md0', ref: 'raid:md0', alt: '' },
      { kind: 2, name: 'nvme0n1', ref: 'nvme:eui.0025388b91b1c2d3', alt: '' },
      { kind: 3, name: 'md0', ref: 'raid:md0', alt: '/srv/data' },
      { kind: 3, name: 'nvme0n1p2', ref: 'mount:/', alt: '' },
      { kind: 3, name: 'vg0-backup', ref: 'lvm:vg0/backup', alt: '' },
      { kind: 4, name: 'nvme0n1', ref: 'nvme:eui.0025388b91b1c2d3', alt: '/dev/nvme0n1' },
      { kind: 4, name: 'sda', ref: 'wwn:0x5000c500a1b2c3d4', alt: '/dev/sda' },
      { kind: 4, name: 'sdb', ref: 'wwn:0x5000c500a1b2c3d5', alt: '/dev/sdb' },
    ]);
  });

  it('records the client address when a report becomes current, not for stale ones', () => {
    engine.commitBatch([metricsWrite(1, T0 + 3000, { ip: '192.0.2.7' })]);
    engine.commitBatch([metricsWrite(1, T0, { ip: '198.51.100.9' })]);
    expect(q('SELECT ip FROM nodes WHERE id = 1')).toEqual([{ ip: '192.0.2.7' }]);
    engine.commitBatch([metricsWrite(1, T0 + 6000, { ip: '198.51.100.9' })]);
    expect(q('SELECT ip FROM nodes WHERE id = 1')).toEqual([{ ip: '198.51.100.9' }]);
  });

  it('fails the whole batch on a storage error, storing nothing', () => {
    store.raw.exec('DROP TABLE node_current');
    expect(() => engine.commitBatch([metricsWrite(1, T0), metricsWrite(2, T0)])).toThrow();
    expect(rawTimes(1)).toEqual([]);
  });
});

describe('device dictionary shared by several ingest threads', () => {
  it('registers a device again when another thread pruned its row', () => {
    engine.commitBatch([metricsWrite(1, T0)]);
    const ids = () =>
      q<{ id: number }>('SELECT id FROM metric_devices WHERE node_id = 1 ORDER BY id').map(
        (r) => r.id,
      );
    const before = ids();
    expect(before.length).toBeGreaterThan(0);
    // Retention elsewhere removed every device of the node (unseen for 32 days there).
    store.raw.prepare('DELETE FROM metric_devices WHERE node_id = 1').run();
    now = T0 + 61_000;
    engine.commitBatch([metricsWrite(1, T0 + 61_000)]);
    expect(ids()).toHaveLength(before.length);
    const seen = q<{ first_seen_at: number }>(
      'SELECT DISTINCT first_seen_at FROM metric_devices WHERE node_id = 1',
    );
    expect(seen).toEqual([{ first_seen_at: T0 + 61_000 }]);
  });
});
