import type { ListenAddress } from './parsers.js';
import type { ConnectionLimits } from './http-limits.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type DatabaseConfig =
  /** commitDelayMs: ingest_commit_delay (also `DashConfig.ingestCommitDelayMs`). */
  { kind: 'sqlite'; path: string; commitDelayMs?: number } | { kind: 'postgres'; url: string };

/** Validated configuration; every field has a documented default (docs/configuration.md). */
export interface DashConfig {
  /** Data directory: database, install id, deploy assets, generated files. */
  home: string;
  listen: ListenAddress;
  /** Root URL users and agents reach Dash at (no trailing slash). */
  publicUrl: string;
  /**
   * False when publicUrl is only the default derived from the listen address; install commands
   * then use the address the admin's browser reached Dash on instead.
   */
  publicUrlConfigured?: boolean;
  /** From DASH_ADMIN_PASSWORD only; replaces the stored hash at start when set. */
  adminPassword: string | undefined;
  database: DatabaseConfig;
  /** IANA zone for calendar days (uptime, traffic). */
  timezone: string;
  logLevel: LogLevel;
  /** A node is offline when no report arrived for this long. */
  nodeOfflineThresholdMs: number;
  trustedProxies: string[];
  /** Raw per-report history retention. */
  rawRetentionDays: number;
  /**
   * Optional size budget for the database (history_max_bytes): raw history is kept for fewer
   * days than configured when the database would pass it.
   */
  historyMaxBytes?: number;
  /** How often raw history is sealed into compressed blocks (a block per node and interval). */
  historySealMs: number;
  /**
   * Longest a stored report waits for the fsync that acknowledges it, so that more reports
   * share it (ingest_commit_delay; SQLite). Undefined: 10 ms (workers/commit-delay.ts).
   */
  ingestCommitDelayMs?: number;
  /** How long after start no alert event opens (alerts_startup_grace); undefined: 60 s. */
  alertsStartupGraceMs?: number;
  /** Per-interface traffic counters and 5-minute facts (at least a whole cycle and the last). */
  trafficRetentionDays: number;
  /**
   * How often queued interface counters are stored (traffic_flush_interval); undefined: 60 s
   * on SQLite, 10 s on PostgreSQL (see docs/traffic.md).
   */
  trafficFlushMs?: number;
  accessTokenTtlMs: number;
  sessionTtlMs: number;
  /** Start a local agent reporting this host (make run). */
  localAgent: boolean;
  /** GET /metrics (Prometheus); off unless enabled, and then only with a token or allow-list. */
  metrics: MetricsConfig;
  /** Self-update (docs/operations.md). */
  update: UpdateConfig;
  /** Distinct devices (interfaces, disks, mounts, sensors) one node may have in the dictionary. */
  nodeMaxDevices: number;
  /**
   * Ingest worker threads (ingest_threads); 0: decided from the cores available
   * (workers/ingest-backend.ts, `ingestThreadsFor`).
   */
  ingestThreads: number;
  /** Failed admin logins one client address may make per minute. */
  loginFailuresPerMinute: number;
  /** Unknown X-Node-Secret attempts one client address may make per minute. */
  nodeAuthFailuresPerMinute: number;
  /** HTTP connection timeouts and the per-address connection cap. */
  connections: ConnectionLimits;
  /** Telegram Bot API base URL (notification channels; tests point it at a fake). */
  telegramApiUrl: string;
}

export interface MetricsConfig {
  enabled: boolean;
  /** Bearer token a scraper must send; undefined when only the allow-list guards /metrics. */
  token: string | undefined;
  /** Client addresses or CIDR ranges allowed to scrape; empty: any address (token required). */
  allow: string[];
  /** How often the node part of the exposition is brought up to date while scraped. */
  refreshIntervalMs: number;
}

export interface UpdateConfig {
  /** Release feed: an http(s) base URL serving index.json, or a local directory; '' = none. */
  feed: string;
  /** Pinned Ed25519 public key (PEM file); default $DASH_HOME/config/update-signing.pub.pem. */
  publicKeyFile: string | undefined;
  /** Local-time window (app timezone) in which auto mode may update, minutes from midnight. */
  window: { start: number; end: number };
  /** How often notify and auto modes look at the feed. */
  checkIntervalMs: number;
}
