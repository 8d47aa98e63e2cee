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

/** A session change another instance must follow (issue 23). */
export type SessionChange = { type: 'session'; id: string } | { type: 'all' };

/** How long a token whose session the store did not have is not looked up again. */
const MISS_TTL_MS = 2_000;
const MAX_MISSES = 10_000;

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
  /** Set when several instances share the store: publishes changes, enables store look-ups. */
  private publish: ((change: SessionChange) => void) | undefined;
  private readonly misses = new Map<string, number>();

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
      this.publish?.({ type: 'all' });
    });
  }

  /**
   * Several instances share the store: a session this instance does not hold is looked up
   * there (it may have been created elsewhere a moment ago), refresh and logout read the
   * stored record (another instance may have rotated it), and every change made here is
   * published so the others drop what they hold.
   */
  shareAcrossInstances(publish: (change: SessionChange) => void): void {
    this.publish = publish;
  }

  /** Follows a change published by another instance. */
  async remoteChange(change: SessionChange): Promise<void> {
    if (change.type === 'all') {
      if (!(await this.syncFromStore())) await this.load();
      return;
    }
    this.misses.delete(change.id);
    // Re-read rather than drop, so the session list here stays complete.
    const stored = await this.repo.get(change.id, this.clock.now());
    if (stored) this.sessions.set(change.id, stored);
    else this.sessions.delete(change.id);
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
    this.publish?.({ type: 'session', id });
    return this.issue(record, token, csrf);
  }

  /** Rotates the refresh token (the old one stops working) and issues a new access token. */
  async refresh(
    refreshCookie: string | undefined,
    csrfCookie: string | undefined,
    csrfHeader: string | undefined,
  ) {
    await this.storedFor(refreshCookie);
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
    this.publish?.({ type: 'session', id: session.id });
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
    await this.storedFor(refreshCookie);
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

  /**
   * authenticate, and when several instances share the store, a valid token whose session is
   * not held here is looked up there (created on another instance) before it is refused.
   */
  async authenticateShared(accessToken: string): Promise<string | undefined> {
    const sid = this.authenticate(accessToken);
    if (sid !== undefined || !this.publish) return sid;
    const claims = this.codec.verify(accessToken);
    const now = this.clock.now();
    if (!claims || claims.exp <= now) return undefined;
    if (claims.ver < this.userVersion) return undefined;
    if (claims.ver > this.userVersion) {
      // Issued after a password change on another instance: follow the stored version.
      if (!(await this.syncFromStore()) || claims.ver !== this.userVersion) return undefined;
      return this.authenticate(accessToken);
    }
    if ((this.misses.get(claims.sid) ?? 0) > now) return undefined;
    const stored = await this.repo.get(claims.sid, now);
    if (!stored) {
      if (this.misses.size >= MAX_MISSES) this.misses.clear();
      this.misses.set(claims.sid, now + MISS_TTL_MS);
      return undefined;
    }
    this.sessions.set(stored.id, stored);
    return this.authenticate(accessToken);
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
    this.publish?.({ type: 'session', id: sid });
  }

  /** Every session and every outstanding access token of the admin ends at once. */
  async revokeAll(): Promise<void> {
    const next = this.userVersion + 1;
    await this.settings.setMany([[USER_VERSION_KEY, JSON.stringify(next)]], this.clock.now());
    this.userVersion = next;
    await this.repo.deleteAll();
    this.sessions.clear();
    this.publish?.({ type: 'all' });
  }

  /**
   * Shared store: the stored record of the cookie's session replaces the one held here (another
   * instance may have created or rotated it); gone from the store, it is dropped here too.
   */
  private async storedFor(refreshCookie: string | undefined): Promise<void> {
    if (!this.publish || !refreshCookie) return;
    const sid = refreshCookie.split('.')[0] ?? '';
    if (sid === '') return;
    const stored = await this.repo.get(sid, this.clock.now());
    if (stored) this.sessions.set(sid, stored);
    else this.sessions.delete(sid);
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
