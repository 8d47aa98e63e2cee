import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { MetricsEngine } from '../../../src/store/sqlite/metrics-engine.js';
import { openSqliteStore } from '../../../src/store/sqlite/open.js';
import { openPostgresStore } from '../../../src/store/postgres/open.js';
import {
  copySqliteToPostgres,
  SQLITE_ONLY_TABLES,
} from '../../../src/store/postgres/copy-from-sqlite.js';
import {
  sealAll,
  storedDevices,
  type StoredRow,
} from '../../../src/store/sqlite/history-blocks.js';
import { HOST_METRICS } from '../../../src/protocol/history-metrics.js';
import { migrateSqlite } from '../../../src/store/sqlite/migrate.js';
import { SQLITE_MIGRATIONS } from '../../../src/store/sqlite/migrations/index.js';
import { POSTGRES_MIGRATIONS } from '../../../src/store/postgres/migrations/index.js';
import { tempHome } from '../../support/build-app.js';
import { metricsWrite } from '../../support/metrics-writes.js';
import { freshSchema, postgresUnavailable, warnPostgresSkipped } from '../../support/postgres.js';

const T0 = Date.UTC(2026, 10, 20, 12);
const PG_LACKS = SQLITE_MIGRATIONS.map((m) => m.id).filter(
  (id) => !POSTGRES_MIGRATIONS.some((m) => m.id === id),
);
const DAY = 86_400_000;

const RAW_SQL = 'SELECT * FROM metrics_raw ORDER BY node_id, received_at';
const SEALED = 200;

/** Raw rows with the devices blob parsed (devices sorted), so rows compare by value. */
function rawPoints(
  rows: Array<Record<string, unknown>>,
): Array<Record<string, unknown> & { devices: StoredRow['devices'] }> {
  return rows.map((r) => ({
    ...r,
    devices: storedDevices(r.devices as Uint8Array).sort((a, b) => a.kind - b.kind || a.id - b.id),
  }));
}

/**
 * A SQLite install with rows in most tables, closed: its path and every raw history point as it
 * was written, before most of them were sealed into history blocks.
 */
async function seededSqlite(): Promise<{ path: string; points: Array<Record<string, unknown>> }> {
  const path = join(tempHome(), 'dash.db');
  const s = openSqliteStore(path, T0);
  await s.settings.setMany([['site.name', '"Dash"']], T0);
  const def = await s.groups.ensureNamed('default', T0);
  const web = await s.groups.create('web', 'front', T0);
  const ids: number[] = [];
  for (const hash of ['h1', 'h2', 'h3']) {
    const made = await s.nodes.create({ name: 'Untitled', secretHash: hash, secretEnc: 'e' }, T0);
    if (!made.ok) throw new Error('create failed');
    ids.push(made.id);
  }
  await s.nodes.update(ids[0]!, { groupIds: [def, web], isGuestVisible: true }, T0);
  await s.nodes.softDelete(ids[2]!, T0);
  await s.sessions.insert({
    id: 's1',
    refreshHash: 'r',
    csrfHash: 'c',
    sessionOnly: true,
    userVersion: 1,
    createdAt: T0,
    expiresAt: T0 + DAY,
  });
  const engine = new MetricsEngine(s.raw, () => T0);
  // Two days of history, so two partitions are needed.
  engine.commitBatch([metricsWrite(ids[0]!, T0 - DAY, { deadline: T0 + 5000 })]);
  engine.commitBatch([metricsWrite(ids[0]!, T0), metricsWrite(ids[1]!, T0 + 10)]);
  // Ten minutes of reports before T0, some without a temperature, sealed into blocks below.
  const temp = HOST_METRICS.indexOf('cpu.temp_c');
  engine.commitBatch(
    Array.from({ length: SEALED }, (_, i) => {
      const w = metricsWrite(ids[1]!, T0 - 600_000 + i * 3000, { seq: i, deadline: Infinity });
      if (i % 7 === 0) w.host[temp] = null;
      return w;
    }),
  );
  const points = rawPoints(s.raw.prepare(RAW_SQL).all() as Array<Record<string, unknown>>);
  // Windows closed before T0 become blocks (both days); the rows at T0 stay open.
  expect(sealAll(s.raw, T0 + 60_000).points).toBe(SEALED + 1);
  expect(s.raw.prepare('SELECT count(*) FROM metrics_raw').pluck().get()).toBe(2);
  await s.uptime.saveMinutes([
    {
      nodeId: ids[0]!,
      minute: T0,
      onlineMs: 60_000,
      observedMs: 60_000,
      reports: 20,
      hourStart: T0,
      day: '2026-11-20',
    },
  ]);
  // eth0: a closed bucket in traffic_5m, its open one (T0) on the cursor row and, as a flush
  // before SQLite 0018 left it, in traffic_5m too; eth1: an open bucket only.
  const fact = (iface: string, bucket: number, inBytes: number) => ({
    nodeId: ids[0]!,
    iface,
    bucket,
    inBytes,
    outBytes: 2 * inBytes,
    validIn: inBytes,
    validOut: 2 * inBytes,
    validMs: 1000,
    gapCount: 0,
    resetCount: 0,
  });
  const cursor = (iface: string) => ({
    nodeId: ids[0]!,
    iface,
    firstAt: T0 - 300_000,
    lastAt: T0 + 1000,
    lastRx: 100,
    lastTx: 200,
  });
  s.raw.exec(`INSERT INTO traffic_5m VALUES (${ids[0]}, 'eth0', ${T0}, 7, 7, 7, 7, 7, 0, 1)`);
  await s.traffic.apply({
    counters: [{ nodeId: ids[0]!, iface: 'eth0', at: T0 + 1000, rx: 100, tx: 200 }],
    ifaces: [cursor('eth0'), cursor('eth1')],
    facts: [fact('eth0', T0 - 300_000, 10), fact('eth0', T0, 20), fact('eth1', T0, 30)],
    usage: [],
  });
  s.raw.exec(`
    INSERT INTO alert_rules (name, enabled, metric, operator, threshold, duration_sec, cooldown_min,
      threshold_mode, threshold_offset, generation, generation_at, created_at, updated_at)
      VALUES ('cpu', 1, 'cpu.usage_ratio', '>', 0.9, 60, 5, 'static', 0, 1, ${T0}, ${T0}, ${T0});
    INSERT INTO alert_events (rule_id, rule_generation, rule_name, node_id, metric, status,
      first_trigger_at, last_trigger_at) VALUES (1, 1, 'cpu', ${ids[0]}, 'cpu.usage_ratio', 'open', ${T0}, ${T0});
    INSERT INTO alert_transitions (event_id, transition, created_at) VALUES (1, 'opened', ${T0});
    INSERT INTO notify_channels (name, type, config_sealed, enabled, revision, created_at, updated_at)
      VALUES ('ops', 'webhook', 'sealed', 1, 1, ${T0}, ${T0});
  `);
  await s.close();
  return { path, points };
}

const unavailable = await postgresUnavailable();
if (unavailable !== undefined) warnPostgresSkipped(unavailable);

const order = (results: Array<{ table: string }>) => results.map((r) => r.table);

describe.skipIf(unavailable !== undefined)('copying a SQLite install to PostgreSQL', () => {
  const drops: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
  });

  it('copies every table with verified counts; the copy reads as the original', async () => {
    const { path, points } = await seededSqlite();
    const f = await freshSchema();
    drops.push(f.drop);
    const pg = await openPostgresStore(f.url, T0, { max: 2 });
    const source = new BetterSqlite3(path, { readonly: true });
    const progress: string[] = [];
    // PostgreSQL has 0013 (history blocks are copied as raw rows), so a current SQLite copies.
    expect(PG_LACKS).not.toContain('0013_history_blocks');
    try {
      if (PG_LACKS.length > 0) {
        // SQLite gained a migration PostgreSQL has no counterpart for yet: refused by name.
        await expect(copySqliteToPostgres(source, pg.pool)).rejects.toThrow(PG_LACKS.join(', '));
        return;
      }
      const results = await copySqliteToPostgres(source, pg.pool, (p) =>
        progress.push(`${p.table} ${p.copied}/${p.total}`),
      );
      const counts = Object.fromEntries(results.map((r) => [r.table, r.target]));
      for (const r of results) expect(r.target, r.table).toBe(r.source);
      expect(counts).toMatchObject({
        settings: 1,
        groups: 2,
        nodes: 3,
        node_groups: 3,
        sessions: 1,
        metrics_raw: SEALED + 3,
        node_current: 2,
        uptime_minute: 1,
        uptime_hour: 1,
        uptime_day: 1,
        traffic_counter: 1,
        traffic_iface: 2,
        traffic_5m: 3,
        alert_rules: 1,
        alert_events: 1,
        alert_transitions: 1,
        notify_channels: 1,
      });
      expect(counts.metric_devices).toBeGreaterThan(0);
      expect(progress).toContain(`metrics_raw ${SEALED + 3}/${SEALED + 3}`);
      // History blocks arrive as raw rows; the block tables themselves are not copied.
      for (const t of SQLITE_ONLY_TABLES) expect(order(results)).not.toContain(t);
      // Parents before the tables that reference them.
      expect(order(results).indexOf('nodes')).toBeLessThan(order(results).indexOf('node_groups'));
      expect(order(results).indexOf('alert_events')).toBeLessThan(
        order(results).indexOf('alert_transitions'),
      );

      const lite = openSqliteStore(path, T0);
      expect(await pg.nodes.list()).toEqual(await lite.nodes.list());
      expect(await pg.groups.list()).toEqual(await lite.groups.list());
      expect(await pg.sessions.live(T0)).toEqual(await lite.sessions.live(T0));
      // Open traffic buckets arrive as rows of traffic_5m: every fact reads the same.
      for (const iface of ['eth0', 'eth1']) {
        const facts = await lite.traffic.facts(1, iface, 0, T0 + DAY);
        expect(facts.length).toBeGreaterThan(0);
        expect(await pg.traffic.facts(1, iface, 0, T0 + DAY)).toEqual(facts);
      }
      expect(await pg.traffic.ifaces(1)).toEqual(await lite.traffic.ifaces(1));
      // Every history point, sealed or open, is one PostgreSQL row with the values written.
      const copied = rawPoints(
        (await pg.pool.query(RAW_SQL)).rows as Array<Record<string, unknown>>,
      );
      expect(copied).toHaveLength(SEALED + 3);
      expect(copied).toEqual(points);
      // Nulls and devices came through the blocks too.
      expect(copied.filter((r) => r.cpu_temp_c === null).length).toBeGreaterThanOrEqual(
        Math.ceil(SEALED / 7),
      );
      expect(copied.every((r) => r.devices.length > 0)).toBe(true);
      await lite.close();
      // Ids continue after the copied ones.
      const made = await pg.nodes.create({ name: 'n', secretHash: 'h4', secretEnc: 'e' }, T0);
      expect(made).toEqual({ ok: true, id: 4 });

      // A second copy into the now non-empty database is refused and changes nothing.
      await expect(copySqliteToPostgres(source, pg.pool)).rejects.toThrow(/not empty/);
      expect((await pg.nodes.list()).length).toBe(3);
    } finally {
      source.close();
      await pg.close();
    }
  });

  it('refuses a SQLite database with a migration PostgreSQL does not have', async () => {
    const path = join(tempHome(), 'newer.db');
    const newer = new BetterSqlite3(path);
    migrateSqlite(newer, T0);
    newer.prepare("INSERT INTO schema_migrations (id, applied_at) VALUES ('9999_future', 1)").run();
    const f = await freshSchema();
    drops.push(f.drop);
    const pg = await openPostgresStore(f.url, T0, { max: 1 });
    try {
      await expect(copySqliteToPostgres(newer, pg.pool)).rejects.toThrow(
        /PostgreSQL does not support yet \(.*9999_future\); nothing was copied/,
      );
    } finally {
      newer.close();
      await pg.close();
    }
  });

  it('refuses a SQLite database with migrations pending', async () => {
    const path = join(tempHome(), 'old.db');
    const old = new BetterSqlite3(path);
    migrateSqlite(old, T0);
    old.prepare('DELETE FROM schema_migrations WHERE id = ?').run(SQLITE_MIGRATIONS.at(-1)!.id);
    const f = await freshSchema();
    drops.push(f.drop);
    const pg = await openPostgresStore(f.url, T0, { max: 1 });
    try {
      await expect(copySqliteToPostgres(old, pg.pool)).rejects.toThrow(/run `dash migrate`/);
    } finally {
      old.close();
      await pg.close();
    }
  });
});
