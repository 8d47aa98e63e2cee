import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * AES-256-GCM for secrets Dash must read back (node secrets shown to admins, channel
 * credentials). The key lives in a 0600 file under DASH_HOME, never in the database.
 */
export class DataKey {
  private constructor(private readonly key: Buffer) {}

  /** Loads the key file, creating it (exclusively, mode 0600) on first use. */
  static fromFile(path: string): DataKey {
    if (!existsSync(path)) {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      try {
        writeFileSync(path, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    // A key file copied in or restored with a looser mode is made owner-only again.
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
    const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${path}: data key must be 32 bytes of base64`);
    return new DataKey(key);
  }

  /** A throwaway key for in-memory databases (tests). */
  static ephemeral(): DataKey {
    return new DataKey(randomBytes(32));
  }

  /** A sub-key for one purpose (e.g. signing access tokens), derived with HKDF-SHA256. */
  derive(label: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.key, Buffer.alloc(0), `dash:${label}`, 32));
  }

  /**
   * Tells keys apart without revealing them: an HMAC of a fixed label under the key. Instances
   * sharing a database compare it (domain/cluster/shared-data-key.ts); the key never leaves.
   */
  fingerprint(): string {
    return `v1:${createHmac('sha256', this.key).update('dash:data-key-fingerprint').digest('base64url')}`;
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `v1.${iv.toString('base64')}.${cipher.getAuthTag().toString('base64')}.${body.toString('base64')}`;
  }

  decrypt(sealed: string): string {
    const [v, iv, tag, body] = sealed.split('.');
    if (v !== 'v1' || iv === undefined || tag === undefined || body === undefined) {
      throw new Error('unsupported sealed value');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString(
      'utf8',
    );
  }
}
