import type { SettingsRepo } from '../../store/ports.js';

/** The settings key holding the fingerprint of the data key of the instances on a database. */
export const DATA_KEY_FINGERPRINT_SETTING = 'data_key_fingerprint';

/** An instance whose data key is not the one the database's other instances use. */
export class DataKeyMismatchError extends Error {
  override name = 'DataKeyMismatchError';
}

/**
 * Several instances on one database must share `secrets/data.key`: node secrets and channel
 * credentials are sealed with it and access tokens signed with it, so an instance with another
 * key would fail every one of those the others wrote, one by one, long after it started. The
 * first instance to start stores its key's fingerprint (an HMAC of a fixed label, never the key);
 * every later start compares its own and refuses, naming the fix, when they differ.
 */
export async function claimSharedDataKey(
  settings: SettingsRepo,
  key: { fingerprint(): string },
  keyPath: string,
  now: number,
): Promise<void> {
  const mine = JSON.stringify(key.fingerprint());
  const stored = await settings.claim(DATA_KEY_FINGERPRINT_SETTING, mine, now);
  if (stored === mine) return;
  throw new DataKeyMismatchError(
    `${keyPath} is not the data key of the other Dash instances on this database ` +
      `(its fingerprint differs from the one stored when the database was first served). ` +
      `Node secrets, channel credentials and sessions would not work across instances. ` +
      `Copy secrets/data.key from an instance already serving this database to ${keyPath} ` +
      `(mode 0600) and start again.`,
  );
}
