import { randomUUID } from 'node:crypto';
import { AppError } from '../../errors/app-error.js';
import type { Clock } from '../../platform/clock.js';
import type { ChannelBacklog, ChannelRow, ChannelsRepo } from '../../store/ports.js';
import {
  mergeStoredSecrets,
  parseStoredConfig,
  sanitizeConfig,
  validateConfig,
  validName,
  validType,
  type ChannelConfig,
  type ChannelType,
  type TelegramMtprotoConfig,
} from './config.js';
import { DeliveryError, summarize, TEST_MESSAGE, type ChannelSender } from './delivery.js';
import {
  MtprotoCodeError,
  MtprotoPasswordError,
  type MtprotoGateway,
  type MtprotoLogin,
} from './mtproto.js';

export interface Sealer {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

export interface ChannelView {
  row: ChannelRow;
  /** Sanitized config, or null when the stored config no longer decodes. */
  config: Record<string, unknown> | null;
  backlog: ChannelBacklog;
  deliveryStatus: 'unknown' | 'healthy' | 'degraded' | 'disabled';
}

export interface ChannelsServiceOptions {
  repo: ChannelsRepo;
  sealer: Sealer;
  clock: Clock;
  sender: ChannelSender;
  mtproto: MtprotoGateway;
  /** Budget of a test send (the senders' own HTTP timeout is shorter). */
  testTimeoutMs?: number;
}

const EMPTY_BACKLOG: ChannelBacklog = {
  pending: 0,
  blocked: 0,
  nextRetryAt: null,
  nextProbeAt: null,
};
const LOGIN_TTL_MS = 10 * 60_000;
const MAX_LOGINS = 32;

interface LoginState {
  channelId: number;
  revision: number;
  login: MtprotoLogin;
  expiresAt: number;
  stage: 'code' | 'password';
}

const bad = (message: string) => new AppError('invalid_fields', message);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Channel CRUD with sealed configs, test sends and the MTProto login flow. */
export class ChannelsService {
  private readonly logins = new Map<string, LoginState>();

  constructor(private readonly opts: ChannelsServiceOptions) {}

  async list(): Promise<ChannelView[]> {
    const [rows, backlog] = await Promise.all([this.opts.repo.list(), this.opts.repo.backlog()]);
    return rows.map((row) => this.view(row, backlog.get(row.id)));
  }

  async get(id: number): Promise<ChannelView> {
    const row = await this.row(id);
    const backlog = await this.opts.repo.backlog();
    return this.view(row, backlog.get(id));
  }

  async create(body: unknown): Promise<number> {
    const input = this.parseBody(body, undefined);
    return this.opts.repo.create(input, this.opts.clock.now());
  }

  async replace(id: number, body: unknown): Promise<void> {
    const row = await this.row(id);
    const stored = this.config(row);
    if (stored === undefined) throw new AppError('db_error', 'stored channel config is invalid');
    const input = this.parseBody(body, stored);
    if (isObject(body) && body.revision !== undefined && body.revision !== row.revision) {
      throw new AppError('channel_changed');
    }
    const result = await this.opts.repo.replace(id, row.revision, input, this.opts.clock.now());
    if (result === 'missing') throw new AppError('not_found');
    if (result === 'changed') throw new AppError('channel_changed');
  }

  async setEnabled(id: number, body: unknown): Promise<void> {
    if (!isObject(body) || typeof body.enabled !== 'boolean')
      throw bad('enabled must be a boolean');
    if (this.config(await this.row(id)) === undefined) {
      throw new AppError('db_error', 'stored channel config is invalid');
    }
    if (!(await this.opts.repo.setEnabled(id, body.enabled, this.opts.clock.now()))) {
      throw new AppError('not_found');
    }
  }

  async delete(id: number): Promise<void> {
    if (!(await this.opts.repo.delete(id, this.opts.clock.now()))) throw new AppError('not_found');
  }

  async allExist(ids: readonly number[]): Promise<boolean> {
    return this.opts.repo.allExist(ids);
  }

  /** Sends a test message now; the outcome is recorded in the channel's health. */
  async test(id: number, body: unknown): Promise<void> {
    if (body !== undefined && body !== null && !isObject(body)) throw bad('body must be an object');
    const b = body ?? {};
    for (const k of ['title', 'message'] as const) {
      if (b[k] !== undefined && (typeof b[k] !== 'string' || b[k].length > 4096)) {
        throw bad(`${k} must be a string of at most 4096 characters`);
      }
    }
    const row = await this.row(id);
    const config = this.config(row);
    if (config === undefined) throw new AppError('db_error', 'stored channel config is invalid');
    if (config.type === 'telegram' && config.config.mode === 'mtproto' && !config.config.session) {
      throw new AppError('not_logged_in');
    }
    const message = {
      title: (b.title as string | undefined) || TEST_MESSAGE.title,
      message: (b.message as string | undefined) || TEST_MESSAGE.message,
    };
    try {
      await withTimeout(
        this.opts.sender.send(config, message, this.opts.clock.now()),
        this.opts.testTimeoutMs ?? 15_000,
      );
    } catch (err) {
      const code = err instanceof DeliveryError ? err.code : 'send_failed';
      await this.opts.repo.recordTest(
        id,
        row.revision,
        { ok: false, code, error: summarize(err) },
        this.opts.clock.now(),
      );
      throw new AppError('notify_error', `notification could not be sent (${code})`);
    }
    await this.opts.repo.recordTest(id, row.revision, { ok: true }, this.opts.clock.now());
  }

  // ---- MTProto login -------------------------------------------------------------------------

  async mtprotoCode(body: unknown): Promise<{ loginId: string; timeoutSec?: number }> {
    const id = this.channelIdOf(body);
    const row = await this.row(id);
    const cfg = this.mtprotoConfig(row);
    this.expireLogins();
    if (this.logins.size >= MAX_LOGINS) throw new AppError('login_state_error', 'too many logins');
    let login: MtprotoLogin;
    let sent: { timeoutSec?: number };
    try {
      login = await this.opts.mtproto.startLogin(account(cfg));
      sent = await login.sendCode();
    } catch (err) {
      throw new AppError('notify_error', `login code could not be sent: ${summarize(err)}`);
    }
    const loginId = randomUUID();
    this.logins.set(loginId, {
      channelId: id,
      revision: row.revision,
      login,
      expiresAt: this.opts.clock.now() + LOGIN_TTL_MS,
      stage: 'code',
    });
    return sent.timeoutSec === undefined ? { loginId } : { loginId, timeoutSec: sent.timeoutSec };
  }

  async mtprotoVerify(body: unknown): Promise<{ passwordRequired: boolean }> {
    const [loginId, state] = this.loginOf(body);
    const code = isObject(body) ? body.code : undefined;
    if (typeof code !== 'string' || code.trim() === '' || code.length > 32) {
      throw bad('code is required');
    }
    if (state.stage !== 'code') throw new AppError('login_state_error', 'login awaits a password');
    let result: Awaited<ReturnType<MtprotoLogin['verify']>>;
    try {
      result = await state.login.verify(code.trim());
    } catch (err) {
      if (err instanceof MtprotoCodeError) throw bad(err.message);
      await this.dropLogin(loginId);
      throw new AppError('login_state_error', `login failed: ${summarize(err)}`);
    }
    if ('passwordRequired' in result) {
      state.stage = 'password';
      return { passwordRequired: true };
    }
    await this.saveSession(loginId, state, result);
    return { passwordRequired: false };
  }

  async mtprotoPassword(body: unknown): Promise<void> {
    const [loginId, state] = this.loginOf(body);
    const password = isObject(body) ? body.password : undefined;
    if (typeof password !== 'string' || password === '' || password.length > 1024) {
      throw bad('password is required');
    }
    if (state.stage !== 'password') throw new AppError('login_state_error', 'login awaits a code');
    let result: { session: string; username?: string };
    try {
      result = await state.login.password(password);
    } catch (err) {
      if (err instanceof MtprotoPasswordError) throw bad(err.message);
      await this.dropLogin(loginId);
      throw new AppError('login_state_error', `login failed: ${summarize(err)}`);
    }
    await this.saveSession(loginId, state, result);
  }

  async mtprotoPing(body: unknown): Promise<{ valid: boolean; reason?: string }> {
    const row = await this.row(this.channelIdOf(body));
    const cfg = this.mtprotoConfig(row);
    if (cfg.session === undefined) return { valid: false, reason: 'not_logged_in' };
    let valid: boolean;
    try {
      valid = await this.opts.mtproto.check(account(cfg), cfg.session);
    } catch (err) {
      throw new AppError('notify_error', `session check failed: ${summarize(err)}`);
    }
    return valid ? { valid } : { valid, reason: 'invalid_session' };
  }

  /** Ends pending logins (shutdown). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.logins.keys()].map((id) => this.dropLogin(id)));
  }

  // ---- helpers -------------------------------------------------------------------------------

  private async saveSession(
    loginId: string,
    state: LoginState,
    result: { session: string; username?: string },
  ): Promise<void> {
    await this.dropLogin(loginId);
    const row = await this.row(state.channelId);
    if (row.revision !== state.revision) throw new AppError('channel_changed');
    const cfg = this.mtprotoConfig(row);
    const next: TelegramMtprotoConfig = { ...cfg, session: result.session };
    if (result.username !== undefined) next.username = result.username;
    const outcome = await this.opts.repo.updateConfig(
      row.id,
      state.revision,
      this.opts.sealer.encrypt(JSON.stringify(next)),
      this.opts.clock.now(),
    );
    if (outcome === 'missing') throw new AppError('not_found');
    if (outcome === 'changed') throw new AppError('channel_changed');
  }

  private async dropLogin(loginId: string): Promise<void> {
    const state = this.logins.get(loginId);
    this.logins.delete(loginId);
    await state?.login.close().catch(() => undefined);
  }

  private expireLogins(): void {
    const now = this.opts.clock.now();
    for (const [id, s] of this.logins) if (s.expiresAt <= now) void this.dropLogin(id);
  }

  private loginOf(body: unknown): [string, LoginState] {
    const loginId = isObject(body) ? body.login_id : undefined;
    if (typeof loginId !== 'string' || loginId === '') throw bad('login_id is required');
    this.expireLogins();
    const state = this.logins.get(loginId);
    if (state === undefined) throw new AppError('not_found', 'login not found or expired');
    return [loginId, state];
  }

  private channelIdOf(body: unknown): number {
    const id = isObject(body) ? body.channel_id : undefined;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) {
      throw bad('channel_id must be a positive integer');
    }
    return id;
  }

  private mtprotoConfig(row: ChannelRow): TelegramMtprotoConfig {
    const config = this.config(row);
    if (config === undefined) throw new AppError('db_error', 'stored channel config is invalid');
    if (config.type !== 'telegram' || config.config.mode !== 'mtproto') {
      throw bad('the channel is not a Telegram MTProto channel');
    }
    return config.config;
  }

  private async row(id: number): Promise<ChannelRow> {
    const row = await this.opts.repo.get(id);
    if (row === undefined) throw new AppError('not_found');
    return row;
  }

  /** The stored config, or undefined when it no longer decrypts or validates. */
  config(row: ChannelRow): ChannelConfig | undefined {
    try {
      return parseStoredConfig(row.type, this.opts.sealer.decrypt(row.sealedConfig));
    } catch {
      return undefined;
    }
  }

  private parseBody(
    body: unknown,
    stored: ChannelConfig | undefined,
  ): { name: string; type: ChannelType; sealedConfig: string; enabled: boolean } {
    if (!isObject(body)) throw bad('body must be an object');
    const name = validName(body.name);
    const type = validType(body.type);
    if (typeof body.enabled !== 'boolean') throw bad('enabled must be a boolean');
    if (body.revision !== undefined && !Number.isSafeInteger(body.revision)) {
      throw bad('revision must be an integer');
    }
    const config = validateConfig(type, mergeStoredSecrets(type, body.config, stored));
    const json = JSON.stringify(config.config);
    if (Buffer.byteLength(json) > 2 * 1024 * 1024) throw bad('config is larger than 2 MiB');
    return { name, type, sealedConfig: this.opts.sealer.encrypt(json), enabled: body.enabled };
  }

  private view(row: ChannelRow, backlog = EMPTY_BACKLOG): ChannelView {
    const config = this.config(row);
    const deliveryStatus = !row.enabled
      ? 'disabled'
      : row.consecutiveFailures > 0 || backlog.blocked > 0
        ? 'degraded'
        : row.lastSuccessAt !== null
          ? 'healthy'
          : 'unknown';
    return {
      row,
      config: config === undefined ? null : sanitizeConfig(config),
      backlog,
      deliveryStatus,
    };
  }
}

function account(cfg: TelegramMtprotoConfig) {
  return { apiId: cfg.api_id, apiHash: cfg.api_hash, phone: cfg.phone };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeliveryError('timeout', true, 'send timed out')), ms);
    timer.unref();
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
