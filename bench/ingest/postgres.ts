/**
 * The PostgreSQL side of the ingest benchmark: a fresh schema per run on the given server,
 * nodes seeded the way node creation stores them, and what the run wrote (table bytes, rows,
 * WAL). The schema is dropped at the end unless the run keeps it.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { DataKey } from '../../src/platform/data-key.js';
import { NodeSecretIndex } from '../../src/domain/nodes/secret-index.js';
import { openPostgresStore } from '../../src/store/postgres/open.js';

export interface BenchSchema {
  /** The server URL with the run's schema as search_path: what each Dash instance is given. */
  url: string;
  schema: string;
  /** Creates `count` nodes (secrets sealed with the home's data key); returns their secrets. */
  seed(home: string, count: number): Promise<string[]>;
  rows(): Promise<number>;
  /** Bytes of every table of the schema (indexes and TOAST included), by table. */
  tableBytes(): Promise<Record<string, number>>;
  /** The server's WAL position; `walSince` gives the bytes written after it (whole cluster). */
  walPosition(): Promise<string>;
  walSince(position: string): Promise<number>;
  /** Ends the connection; drops the schema unless it is kept. */
  end(keep: boolean): Promise<void>;
}

export async function benchSchema(serverUrl: string): Promise<BenchSchema> {
  const schema = `dash_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Pool({ connectionString: serverUrl, max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  const u = new URL(serverUrl);
  u.searchParams.set('options', `-c search_path=${schema}`);
  const url = u.toString();
  return {
    url,
    schema,
    async seed(home, count) {
      // Migrates the schema and creates the history partitions, as `dash migrate` would.
      const store = await openPostgresStore(url, Date.now(), { max: 2 });
      try {
        const key = DataKey.fromFile(join(home, 'secrets', 'data.key'));
        const now = Date.now();
        const secrets = Array.from({ length: count }, () => randomBytes(16).toString('base64url'));
        await store.pool.query(
          `INSERT INTO nodes (name, secret_hash, secret_enc, created_at, updated_at)
           SELECT 'bench-' || n, h, e, $4, $4 FROM unnest($1::bigint[], $2::text[], $3::text[]) AS s (n, h, e)`,
          [
            secrets.map((_, i) => i + 1),
            secrets.map((s) => NodeSecretIndex.hash(s)),
            secrets.map((s) => key.encrypt(s)),
            now,
          ],
        );
        return secrets;
      } finally {
        await store.close();
      }
    },
    async rows() {
      const r = await admin.query<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.metrics_raw`);
      return Number(r.rows[0]?.n ?? 0);
    },
    async tableBytes() {
      const r = await admin.query<{ name: string; bytes: string }>(
        `SELECT c.relname AS name, pg_total_relation_size(c.oid) AS bytes
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = $1 AND c.relkind = 'r' ORDER BY 2 DESC`,
        [schema],
      );
      return Object.fromEntries(r.rows.map((x) => [x.name, Number(x.bytes)]));
    },
    async walPosition() {
      const r = await admin.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
      return r.rows[0]!.lsn;
    },
    async walSince(position) {
      const r = await admin.query<{ bytes: string }>(
        'SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn) AS bytes',
        [position],
      );
      return Number(r.rows[0]?.bytes ?? 0);
    },
    async end(keep) {
      try {
        if (!keep) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await admin.end();
      }
    },
  };
}
