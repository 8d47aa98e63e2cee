import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RenderFacts } from '../../src/domain/front/render.js';
import type { CoreResult, RawReport } from '../../src/domain/ingest/ingest-core.js';
import { PgMetricsEngine } from '../../src/store/postgres/metrics-engine.js';
import type { PostgresStore } from '../../src/store/postgres/open.js';
import type { MetricsMaintenance } from '../../src/store/ports.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/open.js';
import { inlineIngestBackend, type IngestBackend } from '../../src/workers/ingest-backend.js';
import {
  pgIngestBackend,
  type PgIngestBackendOptions,
} from '../../src/workers/pg-ingest-backend.js';
import type { BatchPreparer } from '../../src/workers/batch-preparer.js';
import { preparePool } from '../../src/workers/prepare-pool.js';
import { silentLogger } from '../../src/platform/logger.js';
import { agentReport } from '../support/agent-payloads.js';
import { openSharedPostgres, POSTGRES_AVAILABLE } from '../store/engines.js';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const STALE = 17;
/** The realistic report names 12 devices; one more is allowed. */
const LIMIT = 13;

const noMaintenance: MetricsMaintenance = {
  rollup: () => Promise.reject(new Error('not in this test')),
  retention: () => Promise.reject(new Error('not in this test')),
};

function report(nodeId: number, receivedAt: number, body: string | object): RawReport {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    nodeId,
    receivedAt,
    deadline: receivedAt + 5000,
    body: Buffer.from(text),
    ip: '10.0.0.9',
  };
}

/** What a report answers, without the parts only a log reads. */
/**
 * An answer as compared: a view body a preparation thread sent as bytes (packed-prepared.ts)
 * as the string it encodes, so the view itself is compared.
 */
const shape = (r: CoreResult): CoreResult =>
  !r.ok
    ? { ok: false, code: r.code, message: r.message }
    : 'bodyBytes' in r.view
      ? { ...r, view: { bodyJson: Buffer.from(r.view.bodyBytes).toString('utf8') } }
      : r;

/**
 * Every test runs with preparation on the calling thread and on worker threads (as `dash serve`
 * prepares): the answers and the rows must not depend on where a batch was decoded.
 */
describe.skipIf(!POSTGRES_AVAILABLE).each(['inline', 'worker threads'] as const)(
  'PostgreSQL ingest backend, preparing %s',
  (where) => {
    let pg: PostgresStore;
    let lite: SqliteStore;
    let now = T0;
    let engine: PgMetricsEngine;
    let backend: IngestBackend;
    let sqliteBackend: IngestBackend;
    let pool: ReturnType<typeof preparePool> | undefined;
    /** The pool outlives each test's backends (closing one must not end it). */
    let preparer: BatchPreparer | undefined;
    const options = (more: Partial<PgIngestBackendOptions> = {}): PgIngestBackendOptions => ({
      now: () => now,
      staleAfterSec: STALE,
      preparer,
      ...more,
    });

    beforeAll(async () => {
      if (where === 'inline') return;
      pool = preparePool({
        threads: 2,
        log: silentLogger,
        now: () => now,
        staleAfterSec: STALE,
        runtimeAsJson: true,
      });
      const p = pool;
      preparer = {
        prepare: (reports) => p.prepare(reports),
        setFacts: (nodeId, facts) => p.setFacts(nodeId, facts),
        close: () => Promise.resolve(),
      };
      // Loading a thread through tsx takes seconds on a busy machine: past a report's 5 s.
      await p.prepare([report(1, now, agentReport()), report(2, now, agentReport())]);
    }, 60_000);
    afterAll(async () => {
      await pool?.close();
    });

    beforeEach(async () => {
      now = T0;
      pg = await openSharedPostgres(T0);
      lite = openSqliteStore(':memory:', 0);
      for (const id of [1, 2, 3]) {
        await pg.pool.query(
          `INSERT INTO nodes (id, name, secret_enc, created_at, updated_at) VALUES ($1, 'n', 'x', 0, 0)`,
          [id],
        );
        lite.raw
          .prepare(
            `INSERT INTO nodes (id, name, secret_hash, secret_enc, created_at, updated_at)
           VALUES (?, 'n', ?, 'x', 0, 0)`,
          )
          .run(id, `h${id}`);
      }
      engine = new PgMetricsEngine(pg.pool, () => now, pg.partitions, LIMIT);
      backend = pgIngestBackend(engine, noMaintenance, options());
      sqliteBackend = inlineIngestBackend(lite.raw, () => now, STALE, LIMIT);
    });
    afterEach(async () => {
      for (const id of [1, 2, 3]) preparer?.setFacts(id, null);
      await backend.close();
      await sqliteBackend.close();
      await pg.close();
      await lite.close();
    });

    const both = async (reports: RawReport[]) => {
      const [onPg, onLite] = await Promise.all([
        Promise.all(reports.map((r) => backend.process(r))),
        Promise.all(reports.map((r) => sqliteBackend.process(r))),
      ]);
      return { onPg: onPg.map(shape), onLite: onLite.map(shape) };
    };

    it('answers the same as the SQLite backend: valid, invalid, older, duplicate times, too many devices', async () => {
      const valid = agentReport({ seq: 1 });
      const rule = agentReport({ seq: 2 });
      rule.metrics.cpu.usage_ratio = 3;
      const wide = agentReport({ seq: 5 });
      const nic = wide.metrics.network[0]!;
      wide.metrics.network.push({ ...nic, name: 'eth8' }, { ...nic, name: 'eth9' });
      const first = await both([
        report(1, T0 + 3000, valid),
        report(1, T0 + 3000, agentReport({ seq: 2 })),
        report(1, T0 + 1000, agentReport({ seq: 3 })),
        report(2, T0, '{"version":'),
        report(2, T0, '{"version":"1","version":"1"}'),
        report(2, T0, rule),
        report(3, T0, wide),
      ]);
      console.log(JSON.stringify(first.onPg.map((r) => (r.ok ? r.outcome : r.message))));
      expect(first.onPg).toEqual(first.onLite);
      const codes = first.onPg.map((r) => (r.ok ? r.outcome : r.code));
      // Node 3's report names 14 devices, past this test's limit.
      expect(codes).toEqual([
        'current',
        'current',
        'history',
        'invalid_request',
        'invalid_request',
        'invalid_metrics',
        'invalid_metrics',
      ]);
      // Rendered views too, once the facts are known.
      const facts: RenderFacts = {
        os: 'linux',
        platform: 'debian',
        platformVersion: '12',
        kernelVersion: '6.1',
        arch: 'x86_64',
        static: { cpu: { sockets: 1 }, memory: {}, raid: { supported: false, available: false } },
      };
      backend.setRenderFacts(1, facts);
      sqliteBackend.setRenderFacts(1, facts);
      const later = await both([report(1, T0 + 6000, agentReport({ seq: 4 }))]);
      expect(later.onPg).toEqual(later.onLite);
      expect(later.onPg[0]?.ok && 'bodyJson' in later.onPg[0].view).toBe(true);
      const rows = await pg.pool.query<{ received_at: number }>(
        'SELECT received_at FROM metrics_raw WHERE node_id = 1 ORDER BY received_at',
      );
      // Same-millisecond reports both kept: the second one moves to the next free millisecond.
      expect(rows.rows.map((r) => r.received_at)).toEqual([
        T0 + 1000,
        T0 + 3000,
        T0 + 3001,
        T0 + 6000,
      ]);
    });

    it('groups reports handed over together into one commit', async () => {
      // The first commit is held until all five batches are prepared, so however slowly the
      // threads prepare them, the other four are waiting when it returns.
      let preparedBatches = 0;
      let allPrepared!: () => void;
      const five = new Promise<void>((resolve) => (allPrepared = resolve));
      const base = options().preparer;
      const counted: BatchPreparer | undefined = base && {
        ...base,
        prepare: async (reports) => {
          const batch = await base.prepare(reports);
          if (++preparedBatches === 5) allPrepared();
          return batch;
        },
      };
      let commits = 0;
      const counting = {
        maxDevicesPerNode: 64,
        commitBatch: async (w: Parameters<PgMetricsEngine['commitBatch']>[0]) => {
          commits++;
          if (commits === 1 && counted) {
            await five;
            await new Promise((resolve) => setImmediate(resolve));
          }
          return engine.commitBatch(w);
        },
      };
      const grouped = pgIngestBackend(
        counting,
        noMaintenance,
        options({ batchSize: 8, commitMaxReports: 1000, preparer: counted }),
      );
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          grouped.process(report(1 + (i % 2), T0 + i * 10, agentReport({ seq: i }))),
        ),
      );
      expect(answers.every((a) => a.ok)).toBe(true);
      // Five prepared batches of 8; the first commits alone, the rest wait and go together.
      expect(commits).toBeLessThanOrEqual(2);
      await grouped.close();
    });

    it('answers each report only once its COMMIT is visible to every other connection', async () => {
      const seen = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const r = await backend.process(report(2, T0 + i * 3000, agentReport({ seq: i })));
          const row = await pg.pool.query(
            'SELECT 1 FROM metrics_raw WHERE node_id = 2 AND received_at = $1',
            [T0 + i * 3000],
          );
          return r.ok && row.rowCount === 1;
        }),
      );
      expect(seen).toEqual(Array(20).fill(true));
    });

    it('answers 503 for every report of a commit that fails; nothing acknowledged is lost', async () => {
      // A deferred check fails at COMMIT itself, after every statement of the batch succeeded.
      await pg.pool.query(`
      CREATE FUNCTION refuse_node_3() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.node_id = 3 THEN RAISE EXCEPTION 'refused at commit'; END IF; RETURN NEW; END $$;
      CREATE CONSTRAINT TRIGGER refuse_node_3 AFTER INSERT OR UPDATE ON node_current
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_node_3();`);
      try {
        const ok = await backend.process(report(1, T0, agentReport()));
        const failed = await Promise.all([
          backend.process(report(1, T0 + 3000, agentReport({ seq: 1 }))),
          backend.process(report(3, T0 + 3000, agentReport({ seq: 1 }))),
          backend.process(report(2, T0 + 3000, '[')),
        ]);
        const after = await backend.process(report(1, T0 + 6000, agentReport({ seq: 2 })));
        expect(ok.ok && after.ok).toBe(true);
        expect(failed.map((r) => (r.ok ? r.outcome : r.code))).toEqual([
          'service_unavailable',
          'service_unavailable',
          'invalid_request',
        ]);
        expect(failed[0]?.ok === false && failed[0].detail).toContain('refused at commit');
        const rows = await pg.pool.query<{ node_id: number; received_at: number }>(
          'SELECT node_id, received_at FROM metrics_raw ORDER BY node_id, received_at',
        );
        expect(rows.rows).toEqual([
          { node_id: 1, received_at: T0 },
          { node_id: 1, received_at: T0 + 6000 },
        ]);
      } finally {
        await pg.pool.query(
          'DROP TRIGGER refuse_node_3 ON node_current; DROP FUNCTION refuse_node_3()',
        );
      }
    });

    it('answers 503 for a report whose deadline passes before COMMIT, and stores none of it', async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const slow = {
        maxDevicesPerNode: 64,
        commitBatch: async (w: Parameters<PgMetricsEngine['commitBatch']>[0]) => {
          await held;
          return engine.commitBatch(w);
        },
      };
      const late = pgIngestBackend(slow, noMaintenance, options());
      const answer = late.process(report(1, T0, agentReport()));
      await new Promise((resolve) => setImmediate(resolve));
      now = T0 + 5001;
      release();
      expect(shape(await answer)).toEqual({
        ok: false,
        code: 'service_unavailable',
        message: 'the report could not be stored within 5 seconds of receipt',
      });
      const before = await backend.process({ ...report(1, T0, agentReport()) });
      expect(shape(before)).toMatchObject({ code: 'service_unavailable' });
      const rows = await pg.pool.query('SELECT 1 FROM metrics_raw');
      expect(rows.rowCount).toBe(0);
      await late.close();
    });
    it.runIf(where === 'worker threads')(
      'stores the same projection and history as a batch prepared on the calling thread',
      async () => {
        const here = pgIngestBackend(engine, noMaintenance, {
          now: () => now,
          staleAfterSec: STALE,
        });
        const body = agentReport({ seq: 7 });
        const [a, b] = await Promise.all([
          here.process(report(2, T0 + 3000, body)),
          backend.process(report(3, T0 + 3000, body)),
        ]);
        expect(a.ok && b.ok).toBe(true);
        const rows = await pg.pool.query<Record<string, unknown>>(
          `SELECT c.*, r.cpu_usage_ratio, length(r.devices) AS devices_bytes FROM node_current c
           JOIN metrics_raw r USING (node_id, received_at) ORDER BY node_id`,
        );
        const [two, three] = rows.rows.map(({ node_id: _, ...rest }) => rest);
        expect(three).toEqual(two);
        expect(
          typeof three?.runtime_json === 'string' && three.runtime_json.length,
        ).toBeGreaterThan(100);
        await here.close();
      },
    );

    it.runIf(where === 'worker threads')(
      'answers 503 for a batch whose preparation thread died, stores none of it, and prepares the next on a new thread',
      async () => {
        const single = pgIngestBackend(engine, noMaintenance, options({ batchSize: 1 }));
        // The batch is handed to the thread in the same turn its end was asked for.
        const dying = pool!.crash();
        const lost = single.process(report(1, T0, agentReport()));
        await dying;
        expect(shape(await lost)).toEqual({
          ok: false,
          code: 'service_unavailable',
          message: 'the report could not be stored',
        });
        // A new thread loads for seconds on a busy machine: give this report the time.
        const next = await single.process({
          ...report(1, T0 + 3000, agentReport({ seq: 1 })),
          deadline: T0 + 80_000,
        });
        expect(next.ok && next.outcome).toBe('current');
        const rows = await pg.pool.query<{ received_at: number }>(
          'SELECT received_at FROM metrics_raw WHERE node_id = 1',
        );
        expect(rows.rows).toEqual([{ received_at: T0 + 3000 }]);
        await single.close();
      },
      // A new thread loads through tsx: tens of seconds on a busy 2-core machine.
      90_000,
    );
  },
);
