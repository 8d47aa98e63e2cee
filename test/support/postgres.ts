import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The PostgreSQL the tests use: POSTGRES_TEST_URL, or the machine's local server. Each test
 * store gets its own schema (created here, dropped when the store closes), so test files and
 * tests never see each other's rows and nothing is left behind.
 */
export const POSTGRES_TEST_URL =
  process.env.POSTGRES_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let probe: Promise<string | undefined> | undefined;

/** undefined when PostgreSQL answers, else why not (printed loudly once per test file). */
export function postgresUnavailable(): Promise<string | undefined> {
  probe ??= (async () => {
    if (process.env.DASH_TEST_POSTGRES === '0') return 'DASH_TEST_POSTGRES=0';
    const client = new pg.Client({
      connectionString: POSTGRES_TEST_URL,
      connectionTimeoutMillis: 3000,
    });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return undefined;
    } catch (err) {
      return (err as Error).message;
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return probe;
}

/** Prints why the PostgreSQL half of a suite does not run. */
export function warnPostgresSkipped(reason: string): void {
  const line = '!'.repeat(78);
  process.stderr.write(
    `\n${line}\n!! PostgreSQL tests SKIPPED: no PostgreSQL at ${POSTGRES_TEST_URL}\n!! (${reason})\n` +
      `!! Start one (pg_ctlcluster <version> main start) or set POSTGRES_TEST_URL.\n${line}\n\n`,
  );
}

/** A fresh, empty schema and a URL whose connections use it; drop() removes it. */
export async function freshSchema(): Promise<{
  url: string;
  schema: string;
  drop: () => Promise<void>;
}> {
  const schema = `dash_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_TEST_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES_TEST_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    schema,
    async drop() {
      const c = new pg.Client({ connectionString: POSTGRES_TEST_URL });
      await c.connect();
      try {
        await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await c.end();
      }
    },
  };
}

/** Prefix of the schemas a run of vitest.postgres.config.ts keeps: `dash_t_<run>_`. */
export const runSchemaPrefix = (run: string): string => `dash_t_${run}_`;

/**
 * The schema of this name, created when missing: a URL whose connections use it, whether it was
 * there already (left by an earlier test file of the same worker, to be emptied before use), and
 * drop() to remove it.
 */
export async function namedSchema(schema: string): Promise<{
  url: string;
  schema: string;
  existed: boolean;
  drop: () => Promise<void>;
}> {
  if (!/^[a-z0-9_]+$/.test(schema)) throw new Error(`not a test schema name: ${schema}`);
  const admin = new pg.Client({ connectionString: POSTGRES_TEST_URL });
  await admin.connect();
  let existed: boolean;
  try {
    const found = await admin.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    existed = found.rowCount === 1;
    if (!existed) await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES_TEST_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), schema, existed, drop: () => dropSchemas([schema]) };
}

/** Drops these schemas and everything in them. */
export async function dropSchemas(schemas: readonly string[]): Promise<void> {
  if (schemas.length === 0) return;
  const c = new pg.Client({ connectionString: POSTGRES_TEST_URL });
  await c.connect();
  try {
    for (const s of schemas) await c.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
  } finally {
    await c.end();
  }
}

/** Names of the schemas that start with this prefix. */
export async function schemasNamed(prefix: string): Promise<string[]> {
  const c = new pg.Client({ connectionString: POSTGRES_TEST_URL });
  await c.connect();
  try {
    const res = await c.query<{ name: string }>(
      `SELECT nspname AS name FROM pg_namespace WHERE starts_with(nspname, $1) ORDER BY 1`,
      [prefix],
    );
    return res.rows.map((r) => r.name);
  } finally {
    await c.end();
  }
}

/** Deletes every row of the current schema and restarts its id sequences: as migrated, empty. */
export async function emptySchema(pool: pg.Pool | pg.Client): Promise<void> {
  const tables = await pool.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
       AND c.relname <> 'schema_migrations'`,
  );
  // Tables others reference go last (DELETE, not TRUNCATE: much faster on near-empty tables).
  const last = new Set(['nodes', 'groups', 'alert_events']);
  const names = tables.rows.map((t) => t.name);
  const ordered = [...names.filter((n) => !last.has(n)), ...names.filter((n) => last.has(n))];
  await pool.query(
    ordered.map((n) => `DELETE FROM ${n};`).join('\n') +
      `SELECT setval(s.oid, 1, false) FROM pg_class s JOIN pg_namespace n ON n.oid = s.relnamespace
       WHERE s.relkind = 'S' AND n.nspname = current_schema();`,
  );
}
