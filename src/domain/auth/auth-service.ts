import { randomUUID } from 'node:crypto';
import { AppError } from '../../errors/app-error.js';
import type { Clock } from '../../platform/clock.js';
import { randomToken, safeEqual, sha256Hex } from '../../platform/crypto.js';
import type { SessionRecord, SessionsRepo, SettingsRepo } from '../../store/ports.js';
import { USER_VERSION_KEY, type AdminPassword } from './admin-password.js';
import { AccessTokenCodec } from './access-token.js';

export type Persistence = 'session' | 'persistent';

export interface AuthLifetimes {
  accessTtlMs: number;
  sessionTtlMs: number;
}

/** What login and refresh hand back; the HTTP layer turns it into a body and two cookies. */
export interface IssuedSession {
  sessionId: string;
  accessToken: string;
  accessExpiresAt: number;
  /** Cookie value `<sid>.<token>`; only its digest is stored. */
  refreshCookie: string;
  csrfToken: string;
  sessionOnly: boolean;
  sessionExpiresAt: number;
}

export interface SessionView {
  id: string;
  expiresAt: number;
  sessionOnly: boolean;
  current: boolean;
}

/** Accepts `session`/`persistent` in any case with surrounding blanks, as the reference does. */
export function parsePersistence(raw: unknown): Persistence {
  const v = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if (v === 'session' || v === 'persistent') return v;
  throw new AppError('invalid_persistence');
}

/**
 * Admin sessions: password login, refresh-token rotation with a CSRF proof, revocation.
 * Sessions are stored (digests only) and mirrored in memory, so checking an access token needs
 * no database round trip and a revocation is effective for the very next request.
 */
export class AuthService {
  private readonly sessions = new Map<string, SessionRecord>();
  private userVersion = 0;

  constructor(
    private readonly repo: SessionsRepo,
    private readonly settings: SettingsRepo,
    private readonly password: AdminPassword,
    private readonly codec: AccessTokenCodec,
    private readonly clock: Clock,
    private readonly lifetimes: AuthLifetimes,
  ) {
    // A new password ends every session, like revoke-all (the version is already stored).
    password.onChange(async (version) => {
      this.userVersion = version;
      this.sessions.clear();
      await this.repo.deleteAll();
    });
  }

  /** Loads live sessions and the user version; call once at start. */
  async load(): Promise<void> {
    const raw = await this.settings.get(USER_VERSION_KEY);
    this.userVersion = raw === undefined ? 0 : Number(JSON.parse(raw));
    await this.repo.deleteExpired(this.clock.now());
    this.sessions.clear();
    for (const s of await this.repo.live(this.clock.now())) this.sessions.set(s.id, s);
  }

  async login(password: string, persistence: Persistence): Promise<IssuedSession> {
    if (!(await this.password.verify(password))) {
      throw new AppError('unauthorized', 'invalid credentials');
    }
    const now = this.clock.now();
    const id = randomUUID();
    const token = randomToken();
    const csrf = randomUUID();
    const record: SessionRecord = {
      id,
      refreshHash: sha256Hex(token),
      csrfHash: sha256Hex(csrf),
      sessionOnly: persistence === 'session',
      userVersion: this.userVersion,
      createdAt: now,
      expiresAt: now + this.lifetimes.sessionTtlMs,
    };
    await this.repo.insert(record);
    this.sessions.set(id, record);
    return this.issue(record, token, csrf);
  }

  /** Rotates the refresh token (the old one stops working) and issues a new access token. */
  async refresh(
    refreshCookie: string | undefined,
    csrfCookie: string | undefined,
    csrfHeader: string | undefined,
  ) {
    const session = this.proveRefresh(refreshCookie, csrfCookie, csrfHeader);
    const now = this.clock.now();
    const token = randomToken();
    const csrf = randomUUID();
    const rotated: SessionRecord = {
      ...session,
      refreshHash: sha256Hex(token),
      csrfHash: sha256Hex(csrf),
      expiresAt: now + this.lifetimes.sessionTtlMs,
    };
    await this.repo.rotate(session.id, rotated.refreshHash, rotated.csrfHash, rotated.expiresAt);
    this.sessions.set(session.id, rotated);
    return this.issue(rotated, token, csrf);
  }

  /**
   * Ends the session proven by the cookies. A CSRF mismatch is refused; a refresh token that
   * is already invalid still counts as logged out (nothing left to revoke).
   */
  async logout(
    refreshCookie: string | undefined,
    csrfCookie: string | undefined,
    csrfHeader: string | undefined,
  ) {
    this.checkCsrf(csrfCookie, csrfHeader);
    if (!refreshCookie) throw new AppError('unauthorized', 'refresh token missing');
    const sid = refreshCookie.split('.')[0] ?? '';
    const session = this.sessions.get(sid);
    if (!session || !this.matchesRefresh(session, refreshCookie)) return;
    if (!safeEqual(sha256Hex(csrfHeader?.trim() ?? ''), session.csrfHash)) {
      throw new AppError('unauthorized', 'csrf validation failed');
    }
    await this.revoke(sid);
  }

  /**
   * Follows a revocation made by another process (`dash set-password`): when
   * the stored user version moved, sessions are reloaded and older tokens stop working.
   */
  async syncFromStore(): Promise<boolean> {
    const raw = await this.settings.get(USER_VERSION_KEY);
    const stored = raw === undefined ? 0 : Number(JSON.parse(raw));
    if (stored === this.userVersion) return false;
    await this.load();
    return true;
  }

  /** Session id of a valid, unexpired, unrevoked access token. */
  authenticate(accessToken: string): string | undefined {
    const claims = this.codec.verify(accessToken);
    if (!claims) return undefined;
    const now = this.clock.now();
    if (claims.exp <= now || claims.ver !== this.userVersion) return undefined;
    const session = this.sessions.get(claims.sid);
    if (!session || session.expiresAt <= now || session.userVersion !== this.userVersion)
      return undefined;
    return session.id;
  }

  list(currentSid: string | undefined): SessionView[] {
    const now = this.clock.now();
    return [...this.sessions.values()]
      .filter((s) => s.expiresAt > now && s.userVersion === this.userVersion)
      .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id))
      .map((s) => ({
        id: s.id,
        expiresAt: s.expiresAt,
        sessionOnly: s.sessionOnly,
        current: s.id === currentSid,
      }));
  }

  async revoke(sid: string): Promise<void> {
    await this.repo.delete(sid);
    this.sessions.delete(sid);
  }

  /** Every session and every outstanding access token of the admin ends at once. */
  async revokeAll(): Promise<void> {
    const next = this.userVersion + 1;
    await this.settings.setMany([[USER_VERSION_KEY, JSON.stringify(next)]], this.clock.now());
    this.userVersion = next;
    await this.repo.deleteAll();
    this.sessions.clear();
  }

  private issue(s: SessionRecord, token: string, csrf: string): IssuedSession {
    const accessExpiresAt = Math.min(this.clock.now() + this.lifetimes.accessTtlMs, s.expiresAt);
    return {
      sessionId: s.id,
      accessToken: this.codec.sign({ sid: s.id, exp: accessExpiresAt, ver: s.userVersion }),
      accessExpiresAt,
      refreshCookie: `${s.id}.${token}`,
      csrfToken: csrf,
      sessionOnly: s.sessionOnly,
      sessionExpiresAt: s.expiresAt,
    };
  }

  private checkCsrf(cookie: string | undefined, header: string | undefined): void {
    const h = header?.trim();
    if (!cookie || !h || !safeEqual(cookie, h))
      throw new AppError('unauthorized', 'csrf validation failed');
  }

  private matchesRefresh(session: SessionRecord, cookie: string): boolean {
    const token = cookie.slice(cookie.indexOf('.') + 1);
    return safeEqual(sha256Hex(token), session.refreshHash);
  }

  private proveRefresh(
    cookie: string | undefined,
    csrfCookie: string | undefined,
    csrfHeader: string | undefined,
  ) {
    this.checkCsrf(csrfCookie, csrfHeader);
    if (!cookie) throw new AppError('unauthorized', 'refresh token missing');
    const sid = cookie.split('.')[0] ?? '';
    const session = this.sessions.get(sid);
    const now = this.clock.now();
    if (
      !session ||
      session.expiresAt <= now ||
      session.userVersion !== this.userVersion ||
      !this.matchesRefresh(session, cookie) ||
      !safeEqual(sha256Hex(csrfHeader?.trim() ?? ''), session.csrfHash)
    ) {
      throw new AppError('unauthorized', 'refresh token invalid');
    }
    return session;
  }
}
