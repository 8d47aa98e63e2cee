import * as authApi from '../api/auth';
import { ApiError, readCookie, setTokenSource, type TokenSource } from '../api/http';

export type AuthStatus = 'checking' | 'guest' | 'admin';

export interface AuthState {
  status: AuthStatus;
  /** Set when a held session could not be refreshed, so the login page can say why. */
  expired: boolean;
}

/** Refresh this long before the access token expires. */
const REFRESH_MARGIN_MS = 60_000;
const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * Admin session held in memory only: the access token never touches storage. The HttpOnly
 * refresh cookie plus the readable CSRF cookie bring it back after a reload.
 */
export class SessionStore implements TokenSource {
  private state: AuthState = { status: 'checking', expired: false };
  private accessToken: string | null = null;
  private expiresAt = Number.POSITIVE_INFINITY;
  private refreshing: Promise<string | null> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly listeners = new Set<() => void>();

  constructor() {
    setTokenSource(this);
  }

  getState = (): AuthState => this.state;

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  token(): string | null {
    // After a sleep the timer may not have fired yet; start the refresh the timer missed.
    if (this.accessToken && Date.now() >= this.expiresAt) void this.refresh();
    return this.accessToken;
  }

  /** On page load: resume the session when a CSRF cookie says one may exist. */
  async init(): Promise<void> {
    if (!readCookie('csrf')) {
      this.set({ status: 'guest', expired: false });
      return;
    }
    const token = await this.refresh();
    if (!token) this.set({ status: 'guest', expired: false });
  }

  async login(password: string, persistence: authApi.Persistence): Promise<void> {
    const grant = await authApi.login(password, persistence);
    this.accept(grant);
  }

  /** Single-flight: concurrent 401s share one refresh call. */
  refresh(): Promise<string | null> {
    this.refreshing ??= this.doRefresh().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  async logout(): Promise<void> {
    try {
      await authApi.logout();
    } catch (err) {
      // An already-ended session is still a successful sign-out for the user.
      if (!(err instanceof ApiError)) throw err;
    }
    this.drop(false);
  }

  /** The server ended the session (revoked here or elsewhere). */
  drop(expired: boolean): void {
    this.accessToken = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.set({ status: 'guest', expired });
  }

  private async doRefresh(): Promise<string | null> {
    const wasAdmin = this.state.status === 'admin';
    try {
      const grant = await authApi.refresh();
      this.accept(grant);
      return grant.access_token;
    } catch {
      this.drop(wasAdmin);
      return null;
    }
  }

  private accept(grant: authApi.TokenGrant): void {
    this.accessToken = grant.access_token;
    this.schedule(grant.expires_at);
    if (this.state.status !== 'admin' || this.state.expired) {
      this.set({ status: 'admin', expired: false });
    }
  }

  private schedule(expiresAt: string): void {
    if (this.timer) clearTimeout(this.timer);
    const at = Date.parse(expiresAt);
    this.expiresAt = Number.isFinite(at) ? at : Number.POSITIVE_INFINITY;
    const due = at - Date.now() - REFRESH_MARGIN_MS;
    if (!Number.isFinite(due)) return;
    // setTimeout fires at once for delays past 2^31-1 ms; a far expiry just waits the maximum.
    this.timer = setTimeout(
      () => void this.refresh(),
      Math.min(Math.max(due, 5_000), MAX_DELAY_MS),
    );
  }

  private set(next: AuthState): void {
    this.state = next;
    for (const l of this.listeners) l();
  }
}
