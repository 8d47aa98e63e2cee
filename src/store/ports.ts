/**
 * Storage interfaces, one per area. Domain code sees only these; the SQLite (and later
 * PostgreSQL) implementations live under store/. Times are UTC epoch milliseconds.
 */

export interface SettingsRepo {
  /** Raw JSON text of a setting, or undefined when never stored. */
  get(key: string): Promise<string | undefined>;
  getMany(keys: readonly string[]): Promise<Map<string, string>>;
  /** Writes all entries in one transaction. */
  setMany(entries: ReadonlyArray<readonly [string, string]>, now: number): Promise<void>;
}

export interface NodesRepo {
  /** id and secret digest of every live (not deleted) node, for the secret index. */
  liveSecretHashes(): Promise<Array<{ id: number; secretHash: string }>>;
}

export interface SessionRecord {
  id: string;
  /** SHA-256 of the current refresh token. */
  refreshHash: string;
  /** SHA-256 of the current CSRF token. */
  csrfHash: string;
  sessionOnly: boolean;
  userVersion: number;
  createdAt: number;
  expiresAt: number;
}

export interface SessionsRepo {
  insert(session: SessionRecord): Promise<void>;
  /** Sessions not yet expired at `now`. */
  live(now: number): Promise<SessionRecord[]>;
  /** Replaces the refresh and CSRF digests and the expiry (refresh-token rotation). */
  rotate(id: string, refreshHash: string, csrfHash: string, expiresAt: number): Promise<void>;
  delete(id: string): Promise<void>;
  deleteAll(): Promise<void>;
  deleteExpired(now: number): Promise<number>;
}

export interface Store {
  readonly engine: 'sqlite' | 'postgres';
  readonly settings: SettingsRepo;
  readonly nodes: NodesRepo;
  readonly sessions: SessionsRepo;
  /** Liveness probe for readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
