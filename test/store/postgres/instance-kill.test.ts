import { fork } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_METRICS } from '../../../src/protocol/history-metrics.js';
import { HOST_COLUMNS } from '../../../src/store/sqlite/metrics-codec.js';
import { openPostgresStore, type PostgresStore } from '../../../src/store/postgres/open.js';
import { runInstance, JOB_TURN_MS, type InstanceMessage } from '../../support/pg-instance.js';
import { freshSchema } from '../../support/postgres.js';
import { POSTGRES_AVAILABLE } from '../engines.js';

const CHILD = new URL('../../support/pg-instance-child.ts', import.meta.url).pathname;
const MEM_COLUMN = HOST_COLUMNS[HOST_METRICS.indexOf('mem.used')]!;

const until = async (check: () => boolean, ms = 10_000) => {
  const end = performance.now() + ms;
  while (!check()) {
    if (performance.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

/**
 * Two instances on one PostgreSQL schema, one of them a child process killed with SIGKILL in
 * the middle of ingest: no report either acknowledged is lost, each job turn ran on one
 * instance only, and the survivor takes over the jobs and the alert leadership.
 */
describe.skipIf(!POSTGRES_AVAILABLE)('an instance killed mid-ingest', () => {
  let schema: Awaited<ReturnType<typeof freshSchema>>;
  let store: PostgresStore;
  beforeAll(async () => {
    schema = await freshSchema();
    store = await openPostgresStore(schema.url, Date.now(), { max: 2 });
    await store.pool.query(
      `INSERT INTO nodes (id, name, secret_enc, created_at, updated_at)
       VALUES (1, 'n', 'x', 0, 0), (2, 'n', 'x', 0, 0), (3, 'n', 'x', 0, 0), (4, 'n', 'x', 0, 0);
       CREATE TABLE t_job_runs (turn bigint NOT NULL, instance text NOT NULL)`,
    );
  });
  afterAll(async () => {
    await store?.close();
    await schema?.drop();
  });

  it('loses no acknowledged report; jobs and leadership continue on the survivor', async () => {
    const acked: Array<[number, number]> = [];
    const leading = new Map<string, boolean>();
    const onMessage = (m: InstanceMessage) => {
      if ('acked' in m) acked.push(...m.acked);
      else leading.set(m.instance, m.leading);
    };
    const prefix = schema.schema;
    const child = fork(CHILD, [schema.url, '1000000', 'a', prefix], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.on('message', onMessage);
    const exited = new Promise((r) => child.once('exit', r));
    // A leads (it started first); B joins and follows.
    await until(() => leading.get('a') === true, 30_000);
    const b = await runInstance(schema.url, 5_000_000, 'b', onMessage, prefix);
    try {
      const ackedBy = (from: number) => acked.filter(([, m]) => m >= from && m < from + 4e6);
      await until(() => ackedBy(1_000_000).length >= 400 && ackedBy(5_000_000).length >= 400);
      expect(leading.get('b')).toBeUndefined();
      child.kill('SIGKILL');
      await exited;
      const killedAt = Date.now();
      // B takes over the leadership; its job turns go on.
      await until(() => leading.get('b') === true);
      const ackedBeforeB = ackedBy(5_000_000).length;
      await until(() => ackedBy(5_000_000).length >= ackedBeforeB + 200);
      // B's own job turns after the kill: waited for, not slept for (a loaded machine delays
      // B's timers well past a fixed number of turns).
      const turnsAfterKill = async () =>
        (await store.pool.query<{ turn: number }>('SELECT turn FROM t_job_runs')).rows.filter(
          (r) => r.turn * JOB_TURN_MS > killedAt,
        ).length;
      const end = performance.now() + 30_000;
      while ((await turnsAfterKill()) < 3) {
        if (performance.now() > end) throw new Error('B ran fewer than 3 job turns in 30 s');
        await new Promise((r) => setTimeout(r, JOB_TURN_MS));
      }
      await b.stop();

      const rows = (
        await store.pool.query<{ node_id: number; marker: number }>(
          `SELECT node_id, ${MEM_COLUMN} AS marker FROM metrics_raw`,
        )
      ).rows;
      const stored = new Map<string, number>();
      for (const r of rows) {
        const k = `${r.node_id}:${r.marker}`;
        stored.set(k, (stored.get(k) ?? 0) + 1);
      }
      const lost = acked.filter(([n, m]) => !stored.has(`${n}:${m}`));
      expect(lost).toEqual([]);
      expect([...stored.values()].every((c) => c === 1)).toBe(true);
      expect(ackedBy(1_000_000).length).toBeGreaterThanOrEqual(400);

      const runs = (
        await store.pool.query<{ turn: number; instance: string }>(
          'SELECT turn, instance FROM t_job_runs ORDER BY turn',
        )
      ).rows;
      const perTurn = new Map<number, number>();
      for (const r of runs) perTurn.set(r.turn, (perTurn.get(r.turn) ?? 0) + 1);
      // Exactly once per turn across both instances (each turn was tried by both while A lived).
      expect([...perTurn.values()].every((c) => c === 1)).toBe(true);
      expect(new Set(runs.map((r) => r.instance))).toEqual(new Set(['a', 'b']));
      const afterKill = runs.filter((r) => r.turn * JOB_TURN_MS > killedAt);
      expect(afterKill.length).toBeGreaterThanOrEqual(3);
      expect(afterKill.every((r) => r.instance === 'b')).toBe(true);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 90_000);
});
