import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { DEFAULT_CONNECTION_LIMITS } from './http-limits.js';
import { LOG_LEVELS, type DashConfig, type DatabaseConfig, type LogLevel } from './schema.js';
import {
  hostTimeZone,
  parseBoolean,
  parseByteSize,
  parseCidrList,
  parseDuration,
  parseInteger,
  parseListen,
  parsePublicUrl,
  parseSecondsWithin,
  parseTimeZone,
} from './parsers.js';

/** A configuration problem; the message names the offending key. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

interface KeySpec {
  /** YAML key in config.yaml; undefined for environment-only keys. */
  yaml?: string;
  env: string;
  apply: (raw: unknown, out: Draft) => void;
}

type Draft = Omit<DashConfig, 'home' | 'publicUrl' | 'database'> & {
  publicUrl?: string;
  databaseUrl?: string;
};

const str = (raw: unknown): string => {
  if (typeof raw !== 'string' && typeof raw !== 'number') throw new Error('must be a string');
  return String(raw);
};

/** Every key, its YAML name, its environment variable and how it is parsed. */
export const CONFIG_KEYS: readonly KeySpec[] = [
  { yaml: 'listen', env: 'DASH_LISTEN', apply: (v, o) => void (o.listen = parseListen(str(v))) },
  {
    yaml: 'public_url',
    env: 'DASH_PUBLIC_URL',
    apply: (v, o) => void (o.publicUrl = parsePublicUrl(str(v))),
  },
  { env: 'DASH_ADMIN_PASSWORD', apply: (v, o) => void (o.adminPassword = checkPassword(str(v))) },
  {
    yaml: 'database_url',
    env: 'DASH_DATABASE_URL',
    apply: (v, o) => void (o.databaseUrl = str(v).trim()),
  },
  {
    yaml: 'timezone',
    env: 'DASH_TIMEZONE',
    apply: (v, o) => void (o.timezone = parseTimeZone(str(v))),
  },
  {
    yaml: 'log_level',
    env: 'DASH_LOG_LEVEL',
    apply: (v, o) => void (o.logLevel = parseLogLevel(str(v))),
  },
  {
    yaml: 'node_offline_threshold',
    env: 'DASH_NODE_OFFLINE_THRESHOLD',
    apply: (v, o) => void (o.nodeOfflineThresholdMs = parseThreshold(str(v))),
  },
  {
    yaml: 'trusted_proxies',
    env: 'DASH_TRUSTED_PROXIES',
    apply: (v, o) => void (o.trustedProxies = parseCidrList(v)),
  },
  {
    yaml: 'telegram_api_url',
    env: 'DASH_TELEGRAM_API_URL',
    apply: (v, o) => void (o.telegramApiUrl = parsePublicUrl(str(v))),
  },
  {
    yaml: 'history_raw_retention_days',
    env: 'DASH_HISTORY_RAW_RETENTION_DAYS',
    apply: (v, o) => void (o.rawRetentionDays = parseInteger(v, 2, 3650)),
  },
  {
    yaml: 'history_max_bytes',
    env: 'DASH_HISTORY_MAX_BYTES',
    apply: (v, o) => void (o.historyMaxBytes = parseByteSize(v, 2 ** 20)),
  },
  {
    yaml: 'history_seal_interval',
    env: 'DASH_HISTORY_SEAL_INTERVAL',
    apply: (v, o) => void (o.historySealMs = parseSealInterval(str(v))),
  },
  {
    yaml: 'ingest_commit_delay',
    env: 'DASH_INGEST_COMMIT_DELAY',
    apply: (v, o) => void (o.ingestCommitDelayMs = parseCommitDelay(str(v))),
  },
  {
    yaml: 'alerts_startup_grace',
    env: 'DASH_ALERTS_STARTUP_GRACE',
    apply: (v, o) => void (o.alertsStartupGraceMs = parseSecondsWithin(str(v), 0, 60)),
  },
  {
    yaml: 'traffic_retention_days',
    env: 'DASH_TRAFFIC_RETENTION_DAYS',
    apply: (v, o) => void (o.trafficRetentionDays = parseInteger(v, 45, 3650)),
  },
  {
    yaml: 'traffic_flush_interval',
    env: 'DASH_TRAFFIC_FLUSH_INTERVAL',
    apply: (v, o) => void (o.trafficFlushMs = parseFlushInterval(str(v))),
  },
  {
    yaml: 'session_ttl',
    env: 'DASH_SESSION_TTL',
    apply: (v, o) => void (o.sessionTtlMs = parseBounded(str(v), 3_600_000, 366 * 86_400_000)),
  },
  {
    yaml: 'access_token_ttl',
    env: 'DASH_ACCESS_TOKEN_TTL',
    apply: (v, o) => void (o.accessTokenTtlMs = parseBounded(str(v), 60_000, 86_400_000)),
  },
  {
    yaml: 'local_agent',
    env: 'DASH_LOCAL_AGENT',
    apply: (v, o) => void (o.localAgent = parseBoolean(v)),
  },
  {
    yaml: 'metrics_enabled',
    env: 'DASH_METRICS_ENABLED',
    apply: (v, o) => void (o.metrics.enabled = parseBoolean(v)),
  },
  {
    yaml: 'metrics_token',
    env: 'DASH_METRICS_TOKEN',
    apply: (v, o) => void (o.metrics.token = checkMetricsToken(str(v))),
  },
  {
    yaml: 'metrics_allow',
    env: 'DASH_METRICS_ALLOW',
    apply: (v, o) => void (o.metrics.allow = parseCidrList(v)),
  },
  {
    yaml: 'metrics_refresh_interval',
    env: 'DASH_METRICS_REFRESH_INTERVAL',
    apply: (v, o) => void (o.metrics.refreshIntervalMs = parseBounded(str(v), 1000, 300_000)),
  },
  {
    yaml: 'update_feed',
    env: 'DASH_UPDATE_FEED',
    apply: (v, o) => void (o.update.feed = str(v).trim()),
  },
  {
    yaml: 'update_public_key',
    env: 'DASH_UPDATE_PUBLIC_KEY',
    apply: (v, o) => void (o.update.publicKeyFile = resolve(str(v).trim())),
  },
  {
    yaml: 'update_window',
    env: 'DASH_UPDATE_WINDOW',
    apply: (v, o) => void (o.update.window = parseWindow(str(v))),
  },
  {
    yaml: 'update_check_interval',
    env: 'DASH_UPDATE_CHECK_INTERVAL',
    apply: (v, o) =>
      void (o.update.checkIntervalMs = parseBounded(str(v), 300_000, 7 * 86_400_000)),
  },
  {
    yaml: 'node_max_devices',
    env: 'DASH_NODE_MAX_DEVICES',
    apply: (v, o) => void (o.nodeMaxDevices = parseInteger(v, 16, 1_000_000)),
  },
  {
    yaml: 'ingest_threads',
    env: 'DASH_INGEST_THREADS',
    apply: (v, o) => void (o.ingestThreads = parseInteger(v, 0, 16)),
  },
  {
    yaml: 'login_failures_per_minute',
    env: 'DASH_LOGIN_FAILURES_PER_MINUTE',
    apply: (v, o) => void (o.loginFailuresPerMinute = parseInteger(v, 1, 10_000)),
  },
  {
    yaml: 'node_auth_failures_per_minute',
    env: 'DASH_NODE_AUTH_FAILURES_PER_MINUTE',
    apply: (v, o) => void (o.nodeAuthFailuresPerMinute = parseInteger(v, 1, 100_000)),
  },
  {
    yaml: 'http_headers_timeout',
    env: 'DASH_HTTP_HEADERS_TIMEOUT',
    apply: (v, o) => void (o.connections.headersTimeoutMs = parseBounded(str(v), 100, 600_000)),
  },
  {
    yaml: 'http_request_timeout',
    env: 'DASH_HTTP_REQUEST_TIMEOUT',
    apply: (v, o) => void (o.connections.requestTimeoutMs = parseBounded(str(v), 100, 86_400_000)),
  },
  {
    yaml: 'http_idle_timeout',
    env: 'DASH_HTTP_IDLE_TIMEOUT',
    apply: (v, o) => void (o.connections.idleTimeoutMs = parseBounded(str(v), 100, 3_600_000)),
  },
  {
    yaml: 'http_keep_alive_timeout',
    env: 'DASH_HTTP_KEEP_ALIVE_TIMEOUT',
    apply: (v, o) => void (o.connections.keepAliveTimeoutMs = parseBounded(str(v), 100, 3_600_000)),
  },
  {
    yaml: 'http_max_connections_per_address',
    env: 'DASH_HTTP_MAX_CONNECTIONS_PER_ADDRESS',
    apply: (v, o) => void (o.connections.maxConnectionsPerAddress = parseInteger(v, 0, 1_000_000)),
  },
];

function checkMetricsToken(v: string): string {
  const token = v.trim();
  if (token.length < 16) throw new Error('must be at least 16 characters');
  if (token.length > 256) throw new Error('must be at most 256 characters');
  if (!/^[\x21-\x7e]+$/.test(token)) throw new Error('must be printable ASCII without spaces');
  return token;
}

/** `HH:MM-HH:MM`, local time; a window may wrap past midnight (22:00-02:00). */
function parseWindow(v: string): { start: number; end: number } {
  const m = /^(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})$/.exec(v.trim());
  const mins = m ? [Number(m[1]) * 60 + Number(m[2]), Number(m[3]) * 60 + Number(m[4])] : [];
  const [start, end] = mins;
  if (
    start === undefined ||
    end === undefined ||
    start === end ||
    Number(m?.[1]) > 23 ||
    Number(m?.[3]) > 23 ||
    Number(m?.[2]) > 59 ||
    Number(m?.[4]) > 59
  ) {
    throw new Error('must be a local time window HH:MM-HH:MM, e.g. 03:00-05:00');
  }
  return { start, end };
}

function parseLogLevel(v: string): LogLevel {
  const level = v.trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new Error(`must be one of ${LOG_LEVELS.join(', ')}`);
  }
  return level as LogLevel;
}

function parseThreshold(v: string): number {
  return parseBounded(v, 1000, 3_600_000);
}

function parseBounded(v: string, min: number, max: number): number {
  const ms = parseDuration(v);
  if (ms < min || ms > max) throw new Error(`must be between ${min / 1000}s and ${max / 1000}s`);
  return ms;
}

function checkPassword(v: string): string {
  if (v.length < 8) throw new Error('must be at least 8 characters');
  if (v.length > 1024) throw new Error('must be at most 1024 characters');
  return v;
}

function defaults(): Draft {
  return {
    listen: { host: '127.0.0.1', port: 8080 },
    adminPassword: undefined,
    timezone: hostTimeZone(),
    logLevel: 'info',
    nodeOfflineThresholdMs: 17_000,
    trustedProxies: [],
    rawRetentionDays: 8,
    historySealMs: 5 * 60_000,
    trafficRetentionDays: 45,
    accessTokenTtlMs: 15 * 60_000,
    sessionTtlMs: 14 * 86_400_000,
    localAgent: false,
    metrics: { enabled: false, token: undefined, allow: [], refreshIntervalMs: 15_000 },
    update: {
      feed: '',
      publicKeyFile: undefined,
      window: { start: 180, end: 300 },
      checkIntervalMs: 3_600_000,
    },
    nodeMaxDevices: 4096,
    ingestThreads: 0,
    loginFailuresPerMinute: 5,
    nodeAuthFailuresPerMinute: 30,
    connections: { ...DEFAULT_CONNECTION_LIMITS },
    telegramApiUrl: 'https://api.telegram.org',
  };
}

function readYaml(file: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = parseYaml(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(`${file}: ${(err as Error).message}`);
  }
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) {
    throw new ConfigError(`${file}: must be a mapping of keys to values`);
  }
  return doc as Record<string, unknown>;
}

function applyKey(spec: KeySpec, raw: unknown, source: string, draft: Draft): void {
  try {
    spec.apply(raw, draft);
  } catch (err) {
    throw new ConfigError(`${source}: ${(err as Error).message}`);
  }
}

function resolveDatabase(url: string | undefined, home: string, delay?: number): DatabaseConfig {
  const commitDelayMs = delay === undefined ? {} : { commitDelayMs: delay };
  if (url === undefined || url === '')
    return { kind: 'sqlite', path: join(home, 'dash.db'), ...commitDelayMs };
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
  const path = url.replace(/^sqlite:(\/\/)?/, '');
  if (path === '') throw new ConfigError('DASH_DATABASE_URL: sqlite URL needs a file path');
  const file = path === ':memory:' || isAbsolute(path) ? path : resolve(path);
  return { kind: 'sqlite', path: file, ...commitDelayMs };
}

function defaultPublicUrl(listen: { host: string; port: number }): string {
  const host = ['0.0.0.0', '::', ''].includes(listen.host) ? '127.0.0.1' : listen.host;
  const shown = host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${listen.port}`;
}

/**
 * Loads configuration: defaults, then `$DASH_HOME/config.yaml` (optional; unknown keys are an
 * error), then `DASH_*` environment variables. Any invalid value throws a ConfigError naming the key.
 */
export function loadConfig(env: Env = process.env): DashConfig {
  const home = resolve(env.DASH_HOME?.trim() || './data');
  const draft = defaults();
  const file = env.DASH_CONFIG?.trim() || join(home, 'config.yaml');
  if (existsSync(file)) {
    const doc = readYaml(file);
    for (const [key, value] of Object.entries(doc)) {
      const spec = CONFIG_KEYS.find((k) => k.yaml === key);
      if (!spec) throw new ConfigError(`${file}: unknown key "${key}"`);
      applyKey(spec, value, `${file}: ${key}`, draft);
    }
  } else if (env.DASH_CONFIG?.trim()) {
    throw new ConfigError(`DASH_CONFIG: ${file} does not exist`);
  }
  for (const spec of CONFIG_KEYS) {
    const raw = env[spec.env];
    if (raw !== undefined && raw !== '') applyKey(spec, raw, spec.env, draft);
  }
  if (draft.connections.headersTimeoutMs > draft.connections.requestTimeoutMs) {
    throw new ConfigError('http_headers_timeout: must not exceed http_request_timeout');
  }
  const { databaseUrl, publicUrl, ...rest } = draft;
  if (
    draft.metrics.enabled &&
    draft.metrics.token === undefined &&
    draft.metrics.allow.length === 0
  ) {
    throw new ConfigError(
      'DASH_METRICS_ENABLED: /metrics needs DASH_METRICS_TOKEN or DASH_METRICS_ALLOW (or both)',
    );
  }
  return {
    ...rest,
    home,
    publicUrl: publicUrl ?? defaultPublicUrl(draft.listen),
    publicUrlConfigured: publicUrl !== undefined,
    database: resolveDatabase(databaseUrl, home, rest.ingestCommitDelayMs),
  };
}

/** A seal interval: whole minutes from 1 to 60 that divide a day (blocks align to it). */
function parseSealInterval(text: string): number {
  const ms = parseDuration(text);
  if (ms % 60_000 !== 0 || ms < 60_000 || ms > 3_600_000 || 86_400_000 % ms !== 0) {
    throw new Error('must be whole minutes from 1m to 60m that divide a day (e.g. 5m, 15m)');
  }
  return ms;
}

/** Longest ingest_commit_delay: beyond it the answers' latency costs more than the bytes saved. */
const MAX_COMMIT_DELAY_MS = 100;

/** ingest_commit_delay: whole milliseconds from 0 (sync at once) to MAX_COMMIT_DELAY_MS. */
function parseCommitDelay(text: string): number {
  const ms = parseDuration(text);
  if (!Number.isInteger(ms) || ms < 0 || ms > MAX_COMMIT_DELAY_MS) {
    throw new Error(`must be whole milliseconds from 0ms to ${MAX_COMMIT_DELAY_MS}ms (e.g. 10ms)`);
  }
  return ms;
}

/** A traffic flush interval: whole seconds from 10 s to 5 minutes that divide 5 minutes. */
function parseFlushInterval(text: string): number {
  const ms = parseDuration(text);
  if (ms % 1000 !== 0 || ms < 10_000 || ms > 300_000 || 300_000 % ms !== 0) {
    throw new Error('must be whole seconds from 10s to 5m that divide 5 minutes (e.g. 30s, 1m)');
  }
  return ms;
}
