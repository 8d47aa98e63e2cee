import type { Clock } from '../../platform/clock.js';
import { sha256Hex } from '../../platform/crypto.js';

/** Lifetime of an upgrade_token grant (reference §1.6). */
export const GRANT_TTL_MS = 30 * 60 * 1000;
const TOKEN_LENGTH = 32;

export interface Grant {
  token: string;
  assetPath: string;
  expiresAt: number;
}

/**
 * Short-lived permissions to download one deploy asset without X-Node-Secret, for agents that
 * do not send the header. A grant is bound to one asset path and reusable until it expires.
 * Held in memory only (lost on restart, like pending upgrades); only token digests are kept.
 */
export class DownloadGrants {
  private readonly byDigest = new Map<string, { assetPath: string; expiresAt: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly randomToken: (length: number) => string,
  ) {}

  issue(assetPath: string): Grant {
    const now = this.clock.now();
    this.prune(now);
    const token = this.randomToken(TOKEN_LENGTH);
    const expiresAt = now + GRANT_TTL_MS;
    this.byDigest.set(sha256Hex(token), { assetPath, expiresAt });
    return { token, assetPath, expiresAt };
  }

  /** True when the token is live and was issued for exactly this asset path. */
  allows(token: string, assetPath: string): boolean {
    const grant = this.byDigest.get(sha256Hex(token));
    return (
      grant !== undefined && grant.assetPath === assetPath && this.clock.now() < grant.expiresAt
    );
  }

  get size(): number {
    return this.byDigest.size;
  }

  private prune(now: number): void {
    for (const [digest, grant] of this.byDigest) {
      if (grant.expiresAt <= now) this.byDigest.delete(digest);
    }
  }
}
