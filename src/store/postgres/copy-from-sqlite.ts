import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { POSTGRES_MIGRATIONS } from './migrations/index.js';
import { SQLITE_MIGRATIONS } from '../sqlite/migrations/index.js';
import { blockToRows, encodeStoredDevices } from '../sqlite/history-blocks.js';
import { HOST_COLUMNS } from '../sqlite/metrics-codec.js';
import { COUNTER_SLOT_MS, decodeCounters } from '../sqlite/traffic-counter-codec.js';
import { BlockView } from '../history-blocks/block-codec.js';
import { ensurePartitionDays, PARTITIONED_TABLES } from './partitions.js';

export class MigrateDataError extends Error {
  override name = 'MigrateDataError';
}

export interface TableCopy {
  table: string;
  /** Rows in the SQLite source. */
  source: number;
  /** Rows in PostgreSQL after the copy (checked before COMMIT). */
  target: number;
}

export interface CopyProgress {
  table: string;
  copied: number;
  total: number;
}

/** Rows per INSERT statement (PostgreSQL allows 65,535 parameters per statement). */
const MAX_PARAMS = 60_000;
const MAX_ROWS = 1000;

/** Tables other tables reference: copied first (foreign keys are checked row by row). */
const PARENTS = ['settings', 'groups', 'nodes', 'alert_events'];

/**
 * SQLite tables PostgreSQL does not have: the compressed history blocks of SQLite 0013 and
 * their per-day accounting, and the traffic counters by minute of SQLite 0016. Their points are
 * copied as rows of `metrics_raw` and of `traffic_counter` instead.
 */
export const SQLITE_ONLY_TABLES: readonly string[] = [
  'metrics_blocks',
  'metrics_block_days',
  'traffic_counter_minute',
  'traffic_5m_held',
];

/**
 * SQLite columns PostgreSQL does not have: each interface's open 5-minute bucket on its cursor
 * row (SQLite 0018), copied as a row of `traffic_5m` instead (added to the row of the same
 * bucket when there is one: a bucket's fact is the sum of the two).
 */
export const SQLITE_ONLY_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  traffic_iface: [
    'open_bucket',
    'open_in',
    'open_out',
    'open_valid_in',
    'open_valid_out',
    'open_valid_ms',
    'open_gaps',
    'open_resets',
  ],
};

/** The `traffic_5m` column each open-bucket column of `traffic_iface` holds (SQLite 0018). */
const OPEN_FACT_COLUMNS: Readonly<Record<string, string>> = {
  node_id: 'node_id',
  iface: 'iface',
  bucket: 'open_bucket',
  in_bytes: 'open_in',
  out_bytes: 'open_out',
  valid_in: 'open_valid_in',
  valid_out: 'open_valid_out',
  valid_ms: 'open_valid_ms',
  gap_count: 'open_gaps',
  reset_count: 'open_resets',
};

/** The rows of PostgreSQL's `traffic_counter`, decoded from SQLite's minutes (0016). */
const COUNTER_COLUMNS = ['node_id', 'iface', 'received_at', 'rx', 'tx'];

/**
 * PostgreSQL tables SQLite does not have: the unlogged live projection of instances sharing the
 * database (0017). Nothing is copied into it: readers fall back to `node_current`.
 */
export const POSTGRES_ONLY_TABLES: readonly string[] = ['node_live'];

function migrationIds(db: BetterSqlite3.Database): string[] {
  const has = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  if (!has) return [];
  return (
    db.prepare('SELECT id FROM schema_migrations ORDER BY id').all() as Array<{ id: string }>
  ).map((r) => r.id);
}

/**
 * Copies a whole SQLite install into an empty PostgreSQL database already migrated by
 * `migratePostgres`, in one PostgreSQL transaction (a failure leaves it empty, so the copy can
 * simply be run again) from one SQLite read snapshot. Every table is copied column for column;
 * history partitions are created for every day the source holds; identity sequences continue
 * after the highest copied id. Before COMMIT the row count of every table is compared with the
 * source and any difference aborts the copy.
 *
 * Raw history that SQLite sealed into blocks (`metrics_blocks`) is decoded and inserted as rows
 * of `metrics_raw` next to SQLite's open raw rows, so PostgreSQL holds every point as a row; the
 * block tables themselves are not copied. For `metrics_raw` the source count is the open rows
 * plus the points of every block.
 */
export async function copySqliteToPostgres(
  source: BetterSqlite3.Database,
  target: pg.Pool,
  onProgress: (p: CopyProgress) => void = () => {},
): Promise<TableCopy[]> {
  const applied = migrationIds(source);
  const sqliteIds = SQLITE_MIGRATIONS.map((m) => m.id);
  const pending = sqliteIds.filter((id) => !applied.includes(id));
  if (applied.length === 0 || pending.length > 0) {
    throw new MigrateDataError(
      `the SQLite database is not up to date (pending: ${pending.join(', ') || 'all'}); run \`dash migrate\` on it first`,
    );
  }
  const pgIds = new Set(POSTGRES_MIGRATIONS.map((m) => m.id));
  const missing = applied.filter((id) => !pgIds.has(id));
  if (missing.length > 0) {
    throw new MigrateDataError(
      `the SQLite database has migrations PostgreSQL does not support yet (${missing.join(', ')}); nothing was copied`,
    );
  }

  const all = (
    source
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table'
         AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations' ORDER BY name`,
      )
      .all() as Array<{ name: string }>
  ).map((r) => r.name);
  const hasBlocks = all.includes('metrics_blocks');
  const tables = all.filter((t) => !SQLITE_ONLY_TABLES.includes(t));
  const counterMinutes = all.includes('traffic_counter_minute');
  const sqliteColumns = (table: string) =>
    (source.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map(
      (c) => c.name,
    );
  const openFacts = sqliteColumns('traffic_iface').includes('open_bucket');
  if (counterMinutes) tables.push('traffic_counter');
  tables.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));

  const client = await target.connect();
  const results: TableCopy[] = [];
  source.exec('BEGIN');
  try {
    await client.query('BEGIN');
    const targetColumns = await columnsOf(client);
    for (const table of tables) {
      const minutes = counterMinutes && table === 'traffic_counter';
      const withOpen = openFacts && table === 'traffic_5m';
      const cols = minutes
        ? COUNTER_COLUMNS
        : sqliteColumns(table).filter((c) => !SQLITE_ONLY_COLUMNS[table]?.includes(c));
      const have = targetColumns.get(table);
      const absent = have ? cols.filter((c) => !have.has(c)) : cols;
      if (!have || absent.length > 0) {
        throw new MigrateDataError(
          `PostgreSQL has no ${have ? `column(s) ${absent.join(', ')} in ` : ''}table ${table}; nothing was copied`,
        );
      }
      const blocks = table === 'metrics_raw' && hasBlocks;
      let total = minutes
        ? countOf(counterMinuteRows(source))
        : withOpen
          ? countOf(factRowsWithOpen(source, cols))
          : (source.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
      if (blocks) {
        total += source
          .prepare('SELECT coalesce(sum(count), 0) FROM metrics_blocks')
          .pluck()
          .get() as number;
      }
      const nonEmpty = await client.query(`SELECT 1 FROM ${table} LIMIT 1`);
      if (nonEmpty.rowCount !== 0) {
        throw new MigrateDataError(
          `the PostgreSQL database is not empty (table ${table} has rows); copy into a fresh database`,
        );
      }
      const partitioned = PARTITIONED_TABLES.find((p) => p.table === table);
      if (partitioned && total > 0) {
        const days = source
          .prepare(
            minutes
              ? `SELECT DISTINCT (slot * ${COUNTER_SLOT_MS} / 86400000) * 86400000 AS d
                 FROM traffic_counter_minute`
              : `SELECT DISTINCT (${partitioned.column} / 86400000) * 86400000 AS d FROM ${table}`,
          )
          .pluck()
          .all() as number[];
        if (blocks) days.push(...blockDays(source));
        await ensurePartitionDays(client, days);
      }
      onProgress({ table, copied: 0, total });
      const perStatement = Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMS / cols.length)));
      const list = cols.join(', ');
      let copied = 0;
      let chunk: unknown[][] = [];
      const flush = async () => {
        if (chunk.length === 0) return;
        const params: unknown[] = [];
        const values = chunk.map((row) => {
          const start = params.length;
          params.push(...row);
          return `(${row.map((_, i) => `$${start + i + 1}`).join(', ')})`;
        });
        await client.query(`INSERT INTO ${table} (${list}) VALUES ${values.join(', ')}`, params);
        copied += chunk.length;
        chunk = [];
        onProgress({ table, copied, total });
      };
      const rows = minutes
        ? counterMinuteRows(source)
        : withOpen
          ? factRowsWithOpen(source, cols)
          : (source.prepare(`SELECT ${list} FROM ${table}`).raw().iterate() as Iterable<unknown[]>);
      for (const row of rows) {
        chunk.push(row);
        if (chunk.length >= perStatement) await flush();
      }
      if (blocks) {
        for (const row of blockRows(source, cols)) {
          chunk.push(row);
          if (chunk.length >= perStatement) await flush();
        }
      }
      await flush();
      // Identity columns continue after the highest copied id.
      const sequence = cols.includes('id')
        ? (
            await client.query<{ s: string | null }>(
              "SELECT pg_get_serial_sequence($1::text, 'id') AS s",
              [table],
            )
          ).rows[0]?.s
        : null;
      if (sequence) {
        await client.query(
          `SELECT setval($1::regclass, x.m) FROM (SELECT max(id) AS m FROM ${table}) AS x
           WHERE x.m IS NOT NULL`,
          [sequence],
        );
      }
      const counted = await client.query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`);
      results.push({ table, source: total, target: counted.rows[0]?.n ?? -1 });
    }
    const wrong = results.filter((r) => r.source !== r.target);
    if (wrong.length > 0) {
      throw new MigrateDataError(
        `row counts differ (${wrong.map((w) => `${w.table}: ${w.source} → ${w.target}`).join(', ')}); nothing was copied`,
      );
    }
    await client.query('COMMIT');
    return results;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
    source.exec('COMMIT');
  }
}

/** Day starts of every block's first and last point (partitions are per UTC day). */
function blockDays(source: BetterSqlite3.Database): number[] {
  return source
    .prepare(
      `SELECT (t_start / 86400000) * 86400000 FROM metrics_blocks
       UNION SELECT (t_end / 86400000) * 86400000 FROM metrics_blocks`,
    )
    .pluck()
    .all() as number[];
}

/**
 * Every point of every block as a `metrics_raw` row in the order of `cols`: node, receive time,
 * the stored host integers and a devices blob built from the stored device values.
 */
function* blockRows(source: BetterSqlite3.Database, cols: readonly string[]): Generator<unknown[]> {
  const hostIndex = new Map<string, number>(HOST_COLUMNS.map((c, i) => [c, i]));
  const unknown = cols.filter(
    (c) => c !== 'node_id' && c !== 'received_at' && c !== 'devices' && !hostIndex.has(c),
  );
  if (unknown.length > 0) {
    throw new MigrateDataError(
      `history blocks do not hold metrics_raw column(s) ${unknown.join(', ')}; nothing was copied`,
    );
  }
  const blocks = source
    .prepare('SELECT node_id, data FROM metrics_blocks ORDER BY node_id, t_start, id')
    .raw()
    .iterate() as Iterable<[number, Uint8Array]>;
  for (const [nodeId, data] of blocks) {
    for (const row of blockToRows(new BlockView(data))) {
      yield cols.map((c) => {
        if (c === 'node_id') return nodeId;
        if (c === 'received_at') return row.at;
        if (c === 'devices') return encodeStoredDevices(row.devices);
        return row.host[hostIndex.get(c)!] ?? null;
      });
    }
  }
}

/** Every stored traffic counter as `[node_id, iface, received_at, rx, tx]` (COUNTER_COLUMNS). */
function* counterMinuteRows(
  source: BetterSqlite3.Database,
): Generator<[number, string, number, number, number]> {
  const minutes = source
    .prepare('SELECT node_id, data FROM traffic_counter_minute ORDER BY slot, node_id')
    .raw()
    .iterate() as Iterable<[number, Uint8Array]>;
  for (const [nodeId, data] of minutes) {
    for (const c of decodeCounters(data)) yield [nodeId, c.iface, c.at, c.rx, c.tx];
  }
}

/**
 * Every `traffic_5m` row in the order of `cols`, each interface's open bucket (SQLite 0018)
 * added to the row of its bucket, or as a row of its own when the bucket has none.
 */
function* factRowsWithOpen(
  source: BetterSqlite3.Database,
  cols: readonly string[],
): Generator<unknown[]> {
  const unknown = cols.filter((c) => OPEN_FACT_COLUMNS[c] === undefined);
  if (unknown.length > 0) {
    throw new MigrateDataError(
      `open traffic buckets do not hold traffic_5m column(s) ${unknown.join(', ')}; nothing was copied`,
    );
  }
  const open = new Map<string, unknown[]>();
  const openRows = source
    .prepare(
      `SELECT ${cols.map((c) => OPEN_FACT_COLUMNS[c]).join(', ')} FROM traffic_iface
       WHERE open_bucket IS NOT NULL`,
    )
    .raw()
    .all() as unknown[][];
  const at = (name: string) => cols.indexOf(name);
  const key = (r: unknown[]) => JSON.stringify([r[at('node_id')], r[at('iface')], r[at('bucket')]]);
  for (const r of openRows) open.set(key(r), r);
  const summed = cols
    .map((c, i) => [c, i] as const)
    .filter(([c]) => c !== 'node_id' && c !== 'iface' && c !== 'bucket')
    .map(([, i]) => i);
  const rows = source
    .prepare(`SELECT ${cols.join(', ')} FROM traffic_5m`)
    .raw()
    .iterate();
  for (const r of rows as Iterable<unknown[]>) {
    const k = key(r);
    const o = open.get(k);
    if (o) {
      for (const i of summed) r[i] = (r[i] as number) + (o[i] as number);
      open.delete(k);
    }
    yield r;
  }
  yield* open.values();
}

function countOf(items: Iterable<unknown>): number {
  let n = 0;
  for (const _ of items) n++;
  return n;
}

function rank(table: string): number {
  const i = PARENTS.indexOf(table);
  return i === -1 ? PARENTS.length : i;
}

async function columnsOf(client: pg.PoolClient): Promise<Map<string, Set<string>>> {
  const res = await client.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
     WHERE table_schema = current_schema()`,
  );
  const out = new Map<string, Set<string>>();
  for (const r of res.rows) {
    let set = out.get(r.table_name);
    if (!set) out.set(r.table_name, (set = new Set()));
    set.add(r.column_name);
  }
  return out;
}
