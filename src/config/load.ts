import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { LOG_LEVELS, type DashConfig, type DatabaseConfig, type LogLevel } from './schema.js';
import {
  hostTimeZone,
  parseBoolean,
  parseCidrList,
  parseDuration,
  parseInteger,
  parseListen,
  parsePublicUrl,
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
];

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
    accessTokenTtlMs: 15 * 60_000,
    sessionTtlMs: 14 * 86_400_000,
    localAgent: false,
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

function resolveDatabase(url: string | undefined, home: string): DatabaseConfig {
  if (url === undefined || url === '') return { kind: 'sqlite', path: join(home, 'dash.db') };
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
  const path = url.replace(/^sqlite:(\/\/)?/, '');
  if (path === '') throw new ConfigError('DASH_DATABASE_URL: sqlite URL needs a file path');
  return { kind: 'sqlite', path: path === ':memory:' || isAbsolute(path) ? path : resolve(path) };
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
  const { databaseUrl, publicUrl, ...rest } = draft;
  return {
    ...rest,
    home,
    publicUrl: publicUrl ?? defaultPublicUrl(draft.listen),
    database: resolveDatabase(databaseUrl, home),
  };
}
