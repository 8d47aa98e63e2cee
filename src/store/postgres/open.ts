import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import type { Database } from '../schema.js';
import type {
  AlertsRepo,
  ChannelsRepo,
  FrontRepo,
  HistoryPartitions,
  GroupsRepo,
  NodeStaticRepo,
  NodesRepo,
  SessionsRepo,
  SettingsRepo,
  TrafficAdjustmentsRepo,
  TrafficRepo,
  UptimeRepo,
} from '../ports.js';
import { settingsRepo } from '../queries/settings.js';
import { nodesRepo } from '../queries/nodes.js';
import { groupsRepo } from '../queries/groups.js';
import { sessionsRepo } from '../queries/sessions.js';
import { postgresFrontRepo } from './front.js';
import { nodeStaticRepo } from '../queries/node-static.js';
import { createPool, redactUrl, type PoolOptions } from './pool.js';
import { migratePostgres } from './migrate.js';
import { PartitionGuard } from './partition-guard.js';
import { postgresUptimeRepo } from './uptime.js';
import { postgresAlertsRepo } from './alerts.js';
import { postgresChannelsRepo } from './channels.js';
import { postgresTrafficAdjustmentsRepo } from './traffic-adjustments.js';
import { postgresTrafficRepo } from './traffic.js';
import { postgresHistoryPartitions } from './partition-maintenance.js';
import { PARTITION_DAYS_AHEAD } from './partitions.js';

/**
 * Dash's store on PostgreSQL: every port of `Store` (served by kits/postgres.ts), plus the pool,
 * partitions and their maintenance the engine's own pieces use.
 */
export interface PostgresStore {
  readonly engine: 'postgres';
  readonly pool: pg.Pool;
  /** Kysely over the same pool, for the queries shared with SQLite (store/queries/). */
  readonly db: Kysely<Database>;
  readonly partitions: PartitionGuard;
  /** The partition job's work (jobs/history-partitions.ts). */
  readonly historyPartitions: HistoryPartitions;
  readonly settings: SettingsRepo;
  readonly nodes: NodesRepo;
  readonly groups: GroupsRepo;
  readonly sessions: SessionsRepo;
  readonly uptime: UptimeRepo;
  readonly traffic: TrafficRepo;
  readonly trafficAdjustments: TrafficAdjustmentsRepo;
  readonly alerts: AlertsRepo;
  readonly channels: ChannelsRepo;
  readonly front: FrontRepo;
  readonly nodeStatic: NodeStaticRepo;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class PostgresConnectError extends Error {
  override name = 'PostgresConnectError';
}

/** A pool that has answered once; a clear PostgresConnectError (password hidden) otherwise. */
export async function connectPostgres(url: string, opts: PoolOptions = {}): Promise<pg.Pool> {
  const pool = createPool(url, opts);
  try {
    await pool.query('SELECT 1');
    return pool;
  } catch (err) {
    await pool.end().catch(() => {});
    throw new PostgresConnectError(
      `cannot connect to PostgreSQL at ${redactUrl(url)}: ${(err as Error).message}`,
      { cause: err },
    );
  }
}

/**
 * Connects to PostgreSQL, applies pending migrations (under an advisory lock, so instances
 * starting together migrate once) and creates the next days' history partitions.
 */
export async function openPostgresStore(
  url: string,
  now: number,
  opts: PoolOptions = {},
): Promise<PostgresStore> {
  const pool = await connectPostgres(url, opts);
  try {
    await migratePostgres(pool, now);
  } catch (err) {
    await pool.end().catch(() => {});
    throw err;
  }
  const guard = new PartitionGuard(pool);
  guard.covered(now, now + PARTITION_DAYS_AHEAD * 86_400_000);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  let closed = false;
  return {
    engine: 'postgres',
    pool,
    db,
    partitions: guard,
    historyPartitions: postgresHistoryPartitions(pool, guard),
    settings: settingsRepo(db),
    nodes: nodesRepo(db),
    groups: groupsRepo(db),
    sessions: sessionsRepo(db),
    uptime: postgresUptimeRepo(pool, guard),
    traffic: postgresTrafficRepo(pool, guard),
    trafficAdjustments: postgresTrafficAdjustmentsRepo(pool),
    alerts: postgresAlertsRepo(pool),
    channels: postgresChannelsRepo(pool),
    front: postgresFrontRepo(db, pool),
    nodeStatic: nodeStaticRepo(db),
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      if (closed) return;
      closed = true;
      // Kysely ends the pool it was given only if it ever ran a query; the repos that use the
      // pool directly (alerts, channels, traffic) may be all a store did.
      await db.destroy();
      if (!pool.ending && !pool.ended) await pool.end();
    },
  };
}
