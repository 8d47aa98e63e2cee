import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../schema.js';
import type { Store } from '../ports.js';
import { settingsRepo } from '../queries/settings.js';
import { nodesRepo } from '../queries/nodes.js';
import { groupsRepo } from '../queries/groups.js';
import { sessionsRepo } from '../queries/sessions.js';
import { frontRepo } from '../queries/node-front.js';
import { nodeStaticRepo } from '../queries/node-static.js';
import { sqliteUptimeRepo } from './uptime.js';
import { sqliteTrafficRepo } from './traffic.js';
import { sqliteTrafficAdjustmentsRepo } from './traffic-adjustments.js';
import { sqliteAlertsRepo } from './alerts.js';
import { sqliteChannelsRepo } from './channels.js';
import { migrateSqlite } from './migrate.js';
import { openSqliteConnection } from './connection.js';
import { OpenLogReaders } from './open-logs.js';

export interface SqliteStore extends Store {
  readonly engine: 'sqlite';
  /** Kysely over the same connection, for queries shared with PostgreSQL. */
  readonly db: Kysely<Database>;
  /** The raw connection, for engine-specific hot paths (prepared statements, batching). */
  readonly raw: BetterSqlite3.Database;
  /** The open-block logs of the ingest threads, as every reader on this connection sees them. */
  readonly openLogs: OpenLogReaders | undefined;
}

/**
 * Opens (creating if needed) the SQLite database in WAL mode and applies migrations.
 * `synchronous=FULL` makes every acknowledged commit survive a crash or power loss.
 */
export function openSqliteStore(path: string, now: number): SqliteStore {
  const raw = openSqliteConnection(path);
  migrateSqlite(raw, now);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) });
  const openLogs = path === ':memory:' ? undefined : new OpenLogReaders(path);
  return {
    engine: 'sqlite',
    db,
    raw,
    openLogs,
    settings: settingsRepo(db),
    nodes: nodesRepo(db),
    groups: groupsRepo(db),
    sessions: sessionsRepo(db),
    uptime: sqliteUptimeRepo(raw, openLogs),
    traffic: sqliteTrafficRepo(raw),
    trafficAdjustments: sqliteTrafficAdjustmentsRepo(raw),
    alerts: sqliteAlertsRepo(raw),
    channels: sqliteChannelsRepo(raw),
    front: frontRepo(db),
    nodeStatic: nodeStaticRepo(db),
    async ping() {
      raw.prepare('SELECT 1').get();
    },
    async close() {
      openLogs?.close();
      await db.destroy();
      if (raw.open) raw.close();
    },
  };
}
