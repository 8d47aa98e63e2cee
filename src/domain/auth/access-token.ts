import { createHmac, timingSafeEqual } from 'node:crypto';

export interface AccessClaims {
  /** Session id. */
  sid: string;
  /** Expiry, epoch ms. */
  exp: number;
  /** Admin user version at issue; bumping it revokes every outstanding token. */
  ver: number;
}

/** base64url body, a dot, and a 43-character base64url HMAC-SHA256 (no padding). */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

/**
 * Stateless access tokens: base64url(JSON claims) + "." + HMAC-SHA256. The signature proves
 * Dash issued it; the session check in AuthService makes revocation immediate.
 */
export class AccessTokenCodec {
  constructor(private readonly key: Buffer) {}

  sign(claims: AccessClaims): string {
    const body = Buffer.from(JSON.stringify({ k: 'access', ...claims })).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** Claims of a well-formed, correctly signed token (expiry is checked by the caller). */
  verify(token: string): AccessClaims | undefined {
    // Exactly body "." signature in canonical base64url: Node's base64 decoder skips characters
    // it does not know and bits left over, so junk after the signature would still verify.
    if (token.length > 1024 || !TOKEN_SHAPE.test(token)) return undefined;
    const dot = token.indexOf('.');
    const body = token.slice(0, dot);
    const mac = Buffer.from(token.slice(dot + 1), 'latin1');
    const expected = Buffer.from(this.mac(body), 'latin1');
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) return undefined;
    try {
      const c = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >;
      if (
        c.k !== 'access' ||
        typeof c.sid !== 'string' ||
        typeof c.exp !== 'number' ||
        typeof c.ver !== 'number'
      ) {
        return undefined;
      }
      return { sid: c.sid, exp: c.exp, ver: c.ver };
    } catch {
      return undefined;
    }
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
