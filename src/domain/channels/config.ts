import { AppError } from '../../errors/app-error.js';
import { WEBHOOK_PRESETS } from '../../protocol/webhook-presets.js';

export const CHANNEL_TYPES = ['telegram', 'email', 'webhook'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
export const LANGUAGES = ['system', 'zh', 'en'] as const;

export interface TelegramBotConfig {
  mode: 'bot';
  bot_token: string;
  chat_id: string | number;
  language?: string;
  /** Gather the transitions of this many seconds into one message (0 or absent: off). */
  digest_sec?: number;
}
export interface TelegramMtprotoConfig {
  mode: 'mtproto';
  api_id: number;
  api_hash: string;
  phone: string;
  chat_id: string | number;
  session?: string;
  username?: string;
  language?: string;
  /** Gather the transitions of this many seconds into one message (0 or absent: off). */
  digest_sec?: number;
}
export interface EmailConfig {
  smtp_host: string;
  smtp_port: number;
  username: string;
  password: string;
  from: string;
  to: string[];
  use_tls: boolean;
  language?: string;
  /** Gather the transitions of this many seconds into one message (0 or absent: off). */
  digest_sec?: number;
}
export interface WebhookConfig {
  url: string;
  secret?: string;
  /** A JSON document whose strings may hold {{title}}, {{message}}... (presets fill it). */
  body_template?: string;
  preset?: string;
  language?: string;
  /** Gather the transitions of this many seconds into one message (0 or absent: off). */
  digest_sec?: number;
}
export type ChannelConfig =
  | { type: 'telegram'; config: TelegramBotConfig | TelegramMtprotoConfig }
  | { type: 'email'; config: EmailConfig }
  | { type: 'webhook'; config: WebhookConfig };

/** Secret fields: never returned by a read, kept on replace when omitted or "". */
const SECRET_FIELDS = ['bot_token', 'api_hash', 'password', 'secret'] as const;
export const MAX_CONFIG_BYTES = 2 * 1024 * 1024;

const bad = (message: string) => new AppError('invalid_fields', message);
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const EMAIL = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function strictKeys(o: Record<string, unknown>, allowed: readonly string[], what: string) {
  for (const k of Object.keys(o))
    if (!allowed.includes(k)) throw bad(`${what}: unknown field ${k}`);
}

function str(
  o: Record<string, unknown>,
  k: string,
  max: number,
  required = true,
): string | undefined {
  const v = o[k];
  if (v === undefined) {
    if (required) throw bad(`${k} is required`);
    return undefined;
  }
  if (typeof v !== 'string') throw bad(`${k} must be a string`);
  if (bytes(v) > max) throw bad(`${k} is longer than ${max} bytes`);
  return v;
}

function nonEmpty(o: Record<string, unknown>, k: string, max: number): string {
  const v = str(o, k, max) as string;
  if (v.trim() === '') throw bad(`${k} is required`);
  return v;
}

function chatId(o: Record<string, unknown>): string | number {
  const v = o.chat_id;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && bytes(v) <= 256) return v.trim();
  throw bad('chat_id must be a non-empty string or an integer');
}

function language(o: Record<string, unknown>): string | undefined {
  const v = o.language;
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !(LANGUAGES as readonly string[]).includes(v)) {
    throw bad('language must be system, zh or en');
  }
  return v;
}

export const MAX_DIGEST_SEC = 3600;

function digestSec(o: Record<string, unknown>): number | undefined {
  const v = o.digest_sec;
  if (v === undefined || v === 0) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_DIGEST_SEC) {
    throw bad(`digest_sec must be an integer 0-${MAX_DIGEST_SEC}`);
  }
  return v;
}

/** Fields every type takes: `language` and `digest_sec`. */
function withCommon<T extends object>(c: T, raw: Record<string, unknown>, lang?: string): T {
  const digest = digestSec(raw);
  return {
    ...c,
    ...(lang === undefined ? {} : { language: lang }),
    ...(digest === undefined ? {} : { digest_sec: digest }),
  };
}

/** Seconds of a channel's digest window; 0 = every transition is its own message. */
export function digestSeconds(c: ChannelConfig): number {
  return c.config.digest_sec ?? 0;
}

export function validName(raw: unknown): string {
  if (typeof raw !== 'string') throw bad('name must be a string');
  const name = raw.trim();
  const len = [...name].length;
  if (len < 1 || len > 64 || CONTROL.test(name)) {
    throw bad('name must be 1-64 characters without control characters');
  }
  return name;
}

export function validType(raw: unknown): ChannelType {
  if (typeof raw !== 'string' || !(CHANNEL_TYPES as readonly string[]).includes(raw)) {
    throw bad('type must be telegram, email or webhook');
  }
  return raw as ChannelType;
}

/** Absolute http(s) URL with a host, no userinfo or fragment. */
export function validUrl(raw: string, field: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw bad(`${field} must be an absolute http or https URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw bad(`${field} must be http or https`);
  if (u.hostname === '') throw bad(`${field} needs a host`);
  if (u.username !== '' || u.password !== '') throw bad(`${field} must not carry credentials`);
  if (raw.includes('#')) throw bad(`${field} must not have a fragment`);
  return raw;
}

function validEmail(v: unknown, field: string): string {
  if (typeof v !== 'string' || bytes(v) > 1024 || !EMAIL.test(v.trim())) {
    throw bad(`${field} must be a valid e-mail address`);
  }
  return v.trim();
}

/** Validates a config object for its type; strict (unknown fields are rejected). */
export function validateConfig(type: ChannelType, raw: unknown): ChannelConfig {
  if (!isObject(raw)) throw bad('config must be an object');
  const lang = language(raw);
  switch (type) {
    case 'telegram': {
      const mode = raw.mode ?? 'bot';
      if (mode === 'bot') {
        strictKeys(raw, ['mode', 'bot_token', 'chat_id', 'language', 'digest_sec'], 'telegram');
        const config: TelegramBotConfig = {
          mode: 'bot',
          bot_token: nonEmpty(raw, 'bot_token', 256),
          chat_id: chatId(raw),
        };
        return { type, config: withCommon(config, raw, lang) };
      }
      if (mode !== 'mtproto') throw bad('mode must be bot or mtproto');
      strictKeys(
        raw,
        [
          'mode',
          'api_id',
          'api_hash',
          'phone',
          'chat_id',
          'session',
          'username',
          'language',
          'digest_sec',
        ],
        'telegram',
      );
      const apiId = raw.api_id;
      if (typeof apiId !== 'number' || !Number.isSafeInteger(apiId) || apiId <= 0) {
        throw bad('api_id must be a positive integer');
      }
      const config: TelegramMtprotoConfig = {
        mode: 'mtproto',
        api_id: apiId,
        api_hash: nonEmpty(raw, 'api_hash', 256),
        phone: nonEmpty(raw, 'phone', 64).trim(),
        chat_id: chatId(raw),
      };
      const session = str(raw, 'session', 1024 * 1024, false);
      const username = str(raw, 'username', 1024, false);
      if (session !== undefined && session !== '') config.session = session;
      if (username !== undefined && username !== '') config.username = username;
      return { type, config: withCommon(config, raw, lang) };
    }
    case 'email': {
      strictKeys(
        raw,
        [
          'smtp_host',
          'smtp_port',
          'username',
          'password',
          'from',
          'to',
          'use_tls',
          'language',
          'digest_sec',
        ],
        'email',
      );
      const port = raw.smtp_port;
      if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
        throw bad('smtp_port must be an integer 1-65535');
      }
      if (typeof raw.use_tls !== 'boolean') throw bad('use_tls must be a boolean');
      if (!Array.isArray(raw.to) || raw.to.length === 0 || raw.to.length > 100) {
        throw bad('to must list 1-100 addresses');
      }
      const config: EmailConfig = {
        smtp_host: nonEmpty(raw, 'smtp_host', 253).trim(),
        smtp_port: port,
        username: str(raw, 'username', 1024) as string,
        password: str(raw, 'password', 1024) as string,
        from: validEmail(raw.from, 'from'),
        to: raw.to.map((a: unknown) => validEmail(a, 'to')),
        use_tls: raw.use_tls,
      };
      return { type, config: withCommon(config, raw, lang) };
    }
    case 'webhook': {
      strictKeys(
        raw,
        ['url', 'secret', 'body_template', 'preset', 'language', 'digest_sec'],
        'webhook',
      );
      const url = nonEmpty(raw, 'url', 4096).trim();
      const config: WebhookConfig = { url: validUrl(url, 'url') };
      const secret = str(raw, 'secret', 8192, false);
      if (secret !== undefined && secret !== '') config.secret = secret;
      const template = str(raw, 'body_template', 16 * 1024, false);
      if (template !== undefined && template.trim() !== '') {
        let doc: unknown;
        try {
          doc = JSON.parse(template);
        } catch {
          throw bad('body_template must be a JSON document');
        }
        if (typeof doc !== 'object' || doc === null)
          throw bad('body_template must be a JSON object');
        config.body_template = template;
      }
      const preset = str(raw, 'preset', 32, false);
      if (preset !== undefined && preset !== '') {
        if (!WEBHOOK_PRESETS.some((p) => p.id === preset)) throw bad('unknown webhook preset');
        config.preset = preset;
      }
      return { type, config: withCommon(config, raw, lang) };
    }
  }
}

/**
 * Fills secrets omitted (or sent as "") on a replace of the same type from the stored config.
 * Secret fields are required on create, so only `replace` passes a previous config; the raw
 * input gets the stored value before validation.
 */
export function mergeStoredSecrets(
  type: ChannelType,
  raw: unknown,
  stored: ChannelConfig | undefined,
): unknown {
  if (!isObject(raw) || stored === undefined || stored.type !== type) return raw;
  const prev = stored.config as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { ...raw };
  for (const f of SECRET_FIELDS) {
    if ((out[f] === undefined || out[f] === '') && typeof prev[f] === 'string') out[f] = prev[f];
  }
  if (type === 'telegram' && prev.mode === 'mtproto' && (out.mode ?? 'bot') === 'mtproto') {
    const same =
      out.api_id === prev.api_id && out.api_hash === prev.api_hash && out.phone === prev.phone;
    if (same) {
      if (out.session === undefined && prev.session !== undefined) out.session = prev.session;
      if (out.username === undefined && prev.username !== undefined) out.username = prev.username;
    }
  }
  return out;
}

/** The config as a read shows it: secrets and sessions removed. */
export function sanitizeConfig(c: ChannelConfig): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(c.config as unknown as Record<string, unknown>) };
  for (const f of SECRET_FIELDS) delete out[f];
  delete out.session;
  if (c.type === 'telegram' && c.config.mode === 'mtproto') {
    out.logged_in = c.config.session !== undefined;
  }
  return out;
}

export function parseStoredConfig(type: string, json: string): ChannelConfig {
  return validateConfig(validType(type), JSON.parse(json) as unknown);
}
