import type { ListenAddress } from './parsers.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type DatabaseConfig = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/** Validated configuration; every field has a documented default (docs/configuration.md). */
export interface DashConfig {
  /** Data directory: database, install id, deploy assets, generated files. */
  home: string;
  listen: ListenAddress;
  /** Root URL users and agents reach Dash at (no trailing slash). */
  publicUrl: string;
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
  accessTokenTtlMs: number;
  sessionTtlMs: number;
  /** Start a local agent reporting this host (make run). */
  localAgent: boolean;
  /** Telegram Bot API base URL (notification channels; tests point it at a fake). */
  telegramApiUrl: string;
}
