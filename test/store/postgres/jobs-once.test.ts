import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SystemSettingsService } from '../../../src/domain/settings/system-settings.js';
import { UptimeService } from '../../../src/domain/uptime/uptime-service.js';
import { exclusiveJob } from '../../../src/jobs/exclusive-job.js';
import { uptimeFinalizeJob } from '../../../src/jobs/uptime-finalize.js';
import { postgresJobLocks } from '../../../src/store/postgres/job-locks.js';
import { LeaderLock } from '../../../src/store/postgres/leader-lock.js';
import { PgMetricsEngine } from '../../../src/store/postgres/metrics-engine.js';
import { openPostgresStore, type PostgresStore } from '../../../src/store/postgres/open.js';
import { FakeClock } from '../../support/fake-clock.js';
import { metricsWrite } from '../../support/metrics-writes.js';
import { freshSchema } from '../../support/postgres.js';
import { POSTGRES_AVAILABLE } from '../engines.js';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const MIN = 60_000;

const until = async (check: () => boolean, ms = 5000) => {
  const end = performance.now() + ms;
  while (!check()) {
    if (performance.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe.skipIf(!POSTGRES_AVAILABLE)('work done once across two instances', () => {
  let schema: Awaited<ReturnType<typeof freshSchema>>;
  let a: PostgresStore;
  let b: PostgresStore;
  beforeAll(async () => {
    schema = await freshSchema();
  });
  afterAll(async () => schema?.drop());
  beforeEach(async () => {
    a = await openPostgresStore(schema.url, T0, { max: 3 });
    b = await openPostgresStore(schema.url, T0, { max: 3 });
    await a.pool.query(
      `DELETE FROM uptime_minute; DELETE FROM uptime_hour; DELETE FROM uptime_day;
       DELETE FROM metrics_raw; DELETE FROM node_current; DELETE FROM nodes;
       INSERT INTO nodes (id, name, secret_enc, created_at, updated_at)
       VALUES (1, 'n', 'x', 0, 0)`,
    );
  });
  afterEach(async () => {
    await a.close();
    await b.close();
  });

  it('finalises uptime minutes once, from the reports every instance accepted', async () => {
    const clock = new FakeClock(T0 - 1);
    const uptime = (s: PostgresStore) => {
      const u = new UptimeService(
        s.uptime,
        new SystemSettingsService(s.settings, clock),
        clock,
        'UTC',
        10_000,
      );
      u.readReceiptsFromStore();
      return u;
    };
    const [ua, ub] = [uptime(a), uptime(b)];
    await ua.load();
    await ub.load();
    // Reports every 5 s over the first minute, alternately accepted by A and by B: each
    // instance alone received half of them.
    const engines = [a, b].map((s) => new PgMetricsEngine(s.pool, () => clock.now(), s.partitions));
    for (let i = 0; i < 12; i++) {
      const at = T0 + i * 5000;
      clock.set(at);
      await engines[i % 2]!.commitBatch([metricsWrite(1, at, { seq: i })]);
      (i % 2 === 0 ? ua : ub).recordReceipt(1, at);
    }
    clock.set(T0 + 2 * MIN + 6_000);
    const locksA = postgresJobLocks(a.pool);
    const locksB = postgresJobLocks(b.pool);
    const jobs = [
      exclusiveJob(uptimeFinalizeJob(ua), locksA),
      exclusiveJob(uptimeFinalizeJob(ub), locksB),
    ];
    await Promise.all(jobs.map((j) => j.runOnce(clock.now())));
    // A second turn, on the other instance first: nothing is written twice.
    await Promise.all([...jobs].reverse().map((j) => j.runOnce(clock.now())));
    const rows = (
      await a.pool.query<{
        minute: number;
        online_ms: number;
        observed_ms: number;
        reports: number;
      }>('SELECT minute, online_ms, observed_ms, reports FROM uptime_minute ORDER BY minute')
    ).rows;
    expect(rows).toEqual([
      { minute: T0, online_ms: MIN, observed_ms: MIN, reports: 12 },
      // The last report (T0 + 55 s) covers 10 s: 5 s of the next minute.
      { minute: T0 + MIN, online_ms: 5_000, observed_ms: MIN, reports: 0 },
    ]);
    const day = (await a.pool.query<{ online_ms: number }>('SELECT online_ms FROM uptime_day'))
      .rows;
    expect(day).toEqual([{ online_ms: MIN + 5_000 }]);
  });

  it("runs a turn once even when the instances' timers fire one after the other", async () => {
    const runs: string[] = [];
    const name = `turns-${Math.random().toString(36).slice(2)}`;
    const job = (who: string) => ({
      name,
      nextRunAt: (now: number) => now + 10_000,
      runOnce: async (now: number) => void runs.push(`${who}@${now}`),
    });
    const ja = exclusiveJob(job('a'), postgresJobLocks(a.pool));
    const jb = exclusiveJob(job('b'), postgresJobLocks(b.pool));
    await ja.runOnce(T0);
    await jb.runOnce(T0 + 3_000); // the same turn, on B's timer: skipped
    await jb.runOnce(T0 + 10_000); // the next turn: B is first
    await ja.runOnce(T0 + 10_050);
    await ja.runOnce(T0 + 21_000); // B died: A's next timer runs it
    expect(runs).toEqual([`a@${T0}`, `b@${T0 + 10_000}`, `a@${T0 + 21_000}`]);
  });

  it('one instance leads alert evaluation; another takes over when it dies', async () => {
    const changes: string[] = [];
    const lock = (who: string) =>
      new LeaderLock(schema.url, {
        name: `alerts-${Math.random().toString(36).slice(2)}`,
        retryMs: 50,
        onChange: (leading) => void changes.push(`${who}:${leading}`),
        onError: () => {},
      });
    const name = `alerts-t${Math.random().toString(36).slice(2)}`;
    const mk = (who: string) =>
      new LeaderLock(schema.url, {
        name,
        retryMs: 50,
        onChange: (leading) => void changes.push(`${who}:${leading}`),
        onError: () => {},
      });
    const [la, lb] = [mk('a'), mk('b')];
    await la.start();
    await lb.start();
    await new Promise((r) => setTimeout(r, 200));
    expect([la.leading, lb.leading]).toEqual([true, false]);
    expect(changes).toEqual(['a:true']);
    // A's database session ends (the process died): its lock goes with it.
    await a.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE application_name = 'dash-leader-${name}' AND pid IN (
         SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted)`,
    );
    await until(() => lb.leading && !la.leading);
    expect(changes).toEqual(['a:true', 'a:false', 'b:true']);
    await la.stop();
    await lb.stop();
    // Someone else's lock name leads on its own.
    const other = lock('c');
    await other.start();
    expect(other.leading).toBe(true);
    await other.stop();
    expect(changes.at(-1)).toBe('c:false');
  });
});
