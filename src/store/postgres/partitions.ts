import type pg from 'pg';

const DAY_MS = 86_400_000;

/**
 * History tables partitioned by time (declarative RANGE partitioning on an epoch-ms column),
 * one partition per UTC day named `<table>_pYYYYMMDD`. Partitions are created ahead of time
 * (at start and by the partition job) and retention drops whole partitions instead of deleting
 * rows, so expiring a day of history costs one catalog change however many rows it held.
 */
export const PARTITIONED_TABLES = [
  { table: 'metrics_raw', column: 'received_at' },
  { table: 'uptime_minute', column: 'minute' },
  { table: 'traffic_counter', column: 'received_at' },
  { table: 'traffic_5m', column: 'bucket' },
] as const;

export type PartitionedTable = (typeof PARTITIONED_TABLES)[number]['table'];

/** Days ahead of now that always have a partition. */
export const PARTITION_DAYS_AHEAD = 3;

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

export const dayStart = (t: number): number => Math.floor(t / DAY_MS) * DAY_MS;

function partitionName(table: string, day: number): string {
  return `${table}_p${new Date(day).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

/** Day start (epoch ms) a partition name stands for, or undefined for another name. */
export function partitionDay(table: string, name: string): number | undefined {
  const m = new RegExp(`^${table}_p(\\d{4})(\\d{2})(\\d{2})$`).exec(name);
  if (!m) return undefined;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}

/** Names of a table's partitions (in the current schema), by day. */
export async function listPartitions(
  db: Queryable,
  table: PartitionedTable,
): Promise<Array<{ name: string; day: number }>> {
  const res = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = to_regclass($1)`,
    [table],
  );
  const out: Array<{ name: string; day: number }> = [];
  for (const r of res.rows) {
    const day = partitionDay(table, r.name);
    if (day !== undefined) out.push({ name: r.name, day });
  }
  return out.sort((a, b) => a.day - b.day);
}

/**
 * Makes sure every UTC day touching [from, to] has its partition in every partitioned table.
 * Safe to run concurrently with other instances (an existing partition is left alone).
 */
export function ensurePartitions(db: Queryable, from: number, to: number): Promise<number> {
  const days: number[] = [];
  for (let day = dayStart(from); day <= to; day += DAY_MS) days.push(day);
  return ensurePartitionDays(db, days);
}

/** Makes sure the UTC days holding these times have partitions; returns partitions created. */
export async function ensurePartitionDays(db: Queryable, times: Iterable<number>): Promise<number> {
  const days = new Set<number>();
  for (const t of times) days.add(dayStart(t));
  let created = 0;
  for (const { table } of PARTITIONED_TABLES) {
    const have = new Set((await listPartitions(db, table)).map((p) => p.day));
    for (const day of days) {
      if (have.has(day)) continue;
      await db.query(
        `CREATE TABLE IF NOT EXISTS ${partitionName(table, day)} PARTITION OF ${table}
         FOR VALUES FROM (${day}) TO (${day + DAY_MS})`,
      );
      created++;
    }
  }
  return created;
}

/** Partitions for today and PARTITION_DAYS_AHEAD days after it (the partition job's run). */
export function ensurePartitionsAhead(db: Queryable, now: number): Promise<number> {
  return ensurePartitions(db, now, now + PARTITION_DAYS_AHEAD * DAY_MS);
}

/**
 * Drops a table's partitions whose whole day ends at or before `cutoff`; returns the names
 * dropped. Rows of the day holding the cutoff stay until that day has passed entirely, so
 * history is kept up to one day longer than its retention.
 */
export async function dropPartitionsBefore(
  db: Queryable,
  table: PartitionedTable,
  cutoff: number,
): Promise<string[]> {
  const dropped: string[] = [];
  for (const p of await listPartitions(db, table)) {
    if (p.day + DAY_MS > cutoff) break;
    await db.query(`DROP TABLE IF EXISTS ${p.name}`);
    dropped.push(p.name);
  }
  return dropped;
}
