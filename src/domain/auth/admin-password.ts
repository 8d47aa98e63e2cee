import {
  PASSWORD_COST,
  hashPassword,
  randomAlnum,
  verifyPassword,
  type ScryptCost,
} from '../../platform/crypto.js';
import type { Clock } from '../../platform/clock.js';
import type { SettingsRepo } from '../../store/ports.js';

const KEY = 'auth.admin_password_hash';
/** Bumped to end every session and access token at once (revoke-all, password change). */
export const USER_VERSION_KEY = 'auth.user_version';

export interface PasswordSetup {
  /** Set only on a first start that had to invent a password; print it once, never log it. */
  generated?: string;
}

/**
 * The admin password lives only as a scrypt hash in settings. Changing it ends every session:
 * the new hash and a bumped user version are stored together, and the auth service in this
 * process is told at once (a change made by another process, e.g. `dash set-password`, is
 * picked up by the auth-sync job, which compares the stored version).
 */
export class AdminPassword {
  private readonly listeners: Array<(userVersion: number) => Promise<void>> = [];

  constructor(
    private readonly settings: SettingsRepo,
    private readonly clock: Clock,
    /** scrypt cost of the hashes it stores (tests pass a cheaper one). */
    private readonly cost: ScryptCost = PASSWORD_COST,
  ) {}

  /** Called after each password change with the new user version. */
  onChange(listener: (userVersion: number) => Promise<void>): void {
    this.listeners.push(listener);
  }

  async set(password: string): Promise<void> {
    const hash = await hashPassword(password, this.cost);
    const raw = await this.settings.get(USER_VERSION_KEY);
    const version = (raw === undefined ? 0 : Number(JSON.parse(raw))) + 1;
    await this.settings.setMany(
      [
        [KEY, JSON.stringify(hash)],
        [USER_VERSION_KEY, JSON.stringify(version)],
      ],
      this.clock.now(),
    );
    for (const listener of this.listeners) await listener(version);
  }

  async isSet(): Promise<boolean> {
    return (await this.settings.get(KEY)) !== undefined;
  }

  async verify(password: string): Promise<boolean> {
    const raw = await this.settings.get(KEY);
    if (raw === undefined) return false;
    return verifyPassword(password, JSON.parse(raw) as string);
  }

  /**
   * At start: an explicit password (DASH_ADMIN_PASSWORD) replaces the stored hash when it
   * differs; with neither, a strong password is generated and returned for a one-time print.
   */
  async ensure(explicit: string | undefined): Promise<PasswordSetup> {
    if (explicit !== undefined) {
      if (!(await this.verify(explicit))) await this.set(explicit);
      return {};
    }
    if (await this.isSet()) return {};
    const generated = randomAlnum(24);
    await this.set(generated);
    return { generated };
  }
}
