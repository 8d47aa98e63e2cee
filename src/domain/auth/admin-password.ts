import { hashPassword, randomAlnum, verifyPassword } from '../../platform/crypto.js';
import type { Clock } from '../../platform/clock.js';
import type { SettingsRepo } from '../../store/ports.js';

const KEY = 'auth.admin_password_hash';

export interface PasswordSetup {
  /** Set only on a first start that had to invent a password; print it once, never log it. */
  generated?: string;
}

/** The admin password lives only as a scrypt hash in settings. */
export class AdminPassword {
  constructor(
    private readonly settings: SettingsRepo,
    private readonly clock: Clock,
  ) {}

  async set(password: string): Promise<void> {
    const hash = await hashPassword(password);
    await this.settings.setMany([[KEY, JSON.stringify(hash)]], this.clock.now());
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
