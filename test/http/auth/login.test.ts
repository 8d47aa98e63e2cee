import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { login } from './helpers.js';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => t.close());

describe('POST /api/auth/login', () => {
  it('returns an access token, its expiry and a CSRF token', async () => {
    const { res, body } = await login(t);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(body?.access_token.length).toBeGreaterThan(20);
    expect(body?.expires_at).toBe(
      new Date(t.clock.now() + 15 * 60_000).toISOString().replace('.000', ''),
    );
    expect(body?.csrf_token).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sets browser-session cookies for persistence=session', async () => {
    const { cookies, body } = await login(t, 'session');
    const refresh = cookies.get('refresh');
    const csrf = cookies.get('csrf');
    expect(refresh?.attrs).toMatchObject({ httponly: true, samesite: 'Strict', path: '/api/auth' });
    expect(refresh?.attrs['max-age']).toBeUndefined();
    expect(refresh?.attrs.expires).toBeUndefined();
    expect(refresh?.attrs.secure).toBeUndefined();
    expect(csrf?.value).toBe(body?.csrf_token);
    expect(csrf?.attrs).toMatchObject({ samesite: 'Strict', path: '/' });
    expect(csrf?.attrs.httponly).toBeUndefined();
    expect(csrf?.attrs['max-age']).toBeUndefined();
  });

  it('sets cookies expiring with the session for persistence=persistent', async () => {
    const { cookies } = await login(t, ' Persistent ');
    for (const name of ['refresh', 'csrf']) {
      const c = cookies.get(name);
      expect(c?.attrs['max-age']).toBe(String(14 * 86_400));
      expect(new Date(c?.attrs.expires as string).getTime()).toBe(
        Math.floor((t.clock.now() + 14 * 86_400_000) / 1000) * 1000,
      );
    }
  });

  it('marks cookies Secure when the public URL is https', async () => {
    const secure = await buildTestApp({ DASH_PUBLIC_URL: 'https://dash.example.com' });
    const { cookies } = await login(secure);
    expect(cookies.get('refresh')?.attrs.secure).toBe(true);
    expect(cookies.get('csrf')?.attrs.secure).toBe(true);
    await secure.close();
  });

  it('refuses a wrong password with 401 and sets no cookie', async () => {
    const { res } = await login(t, 'session', 'wrong-password');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'unauthorized' });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it.each(['', 'forever', 'sessions'])(
    'rejects persistence "%s" with 400 invalid_persistence',
    async (p) => {
      const { res } = await login(t, p);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_persistence' });
    },
  );

  it.each([
    ['malformed JSON', '{"password":'],
    ['a duplicate key', '{"password":"a","password":"b","persistence":"session"}'],
    ['a non-string password', '{"password":5,"persistence":"session"}'],
    ['an array', '[]'],
  ])('answers %s with 400 invalid_json', async (_n, payload) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_json' });
  });

  it('limits failed logins to 5 per minute per client address', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await login(t, 'session', 'wrong', '192.0.2.1')).res.statusCode).toBe(401);
    }
    // Even the right password: the address must wait.
    const sixth = await login(t, 'session', undefined, '192.0.2.1');
    expect(sixth.res.statusCode).toBe(429);
    expect(sixth.res.json()).toMatchObject({ code: 'rate_limited' });
    expect(Number(sixth.res.headers['retry-after'])).toBeGreaterThan(0);
    expect(sixth.res.headers['cache-control']).toBe('no-store');
    // A neighbour on the same /24 is not locked out; the address recovers after a minute.
    expect((await login(t, 'session', undefined, '192.0.2.2')).res.statusCode).toBe(200);
    t.clock.advance(60_001);
    expect((await login(t, 'session', undefined, '192.0.2.1')).res.statusCode).toBe(200);
  });

  it('counts only failed logins', async () => {
    for (let i = 0; i < 6; i++) {
      expect((await login(t, 'session', undefined, '192.0.2.1')).res.statusCode).toBe(200);
    }
  });

  it('groups IPv6 clients by /64, one host', async () => {
    for (let i = 0; i < 5; i++) await login(t, 'session', 'wrong', `2001:db8:ab:cd::${i + 1}`);
    expect((await login(t, 'session', undefined, '2001:db8:ab:cd::ff')).res.statusCode).toBe(429);
    expect((await login(t, 'session', undefined, '2001:db8:ab:ce::1')).res.statusCode).toBe(200);
  });

  it('reads its limit from login_failures_per_minute', async () => {
    const strict = await buildTestApp({ DASH_LOGIN_FAILURES_PER_MINUTE: '2' });
    try {
      for (let i = 0; i < 2; i++) await login(strict, 'session', 'wrong', '192.0.2.1');
      expect((await login(strict, 'session', undefined, '192.0.2.1')).res.statusCode).toBe(429);
    } finally {
      await strict.close();
    }
  });

  it('believes X-Forwarded-For only from a trusted proxy', async () => {
    const hit = (app: TestApp, xff: string) =>
      app.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': xff },
        payload: { password: 'wrong', persistence: 'session' },
        remoteAddress: '127.0.0.1',
      });
    // Untrusted: every request counts for the proxy's own address, whatever it claims.
    for (let i = 0; i < 5; i++) await hit(t, `203.0.113.${i}`);
    expect((await hit(t, '198.51.100.1')).statusCode).toBe(429);
    const proxied = await buildTestApp({ DASH_TRUSTED_PROXIES: '127.0.0.1' });
    for (let i = 0; i < 5; i++) await hit(proxied, '203.0.113.7');
    expect((await hit(proxied, '203.0.113.7')).statusCode).toBe(429);
    expect((await hit(proxied, '203.0.113.8')).statusCode).toBe(401);
    expect((await hit(proxied, '198.51.100.1')).statusCode).toBe(401);
    await proxied.close();
  });

  it('never logs the password', async () => {
    const lines: string[] = [];
    const { createLogger } = await import('../../../src/platform/logger.js');
    const log = createLogger('trace', { write: (s: string) => void lines.push(s) });
    log.info(
      { password: 'hunter2-secret', req: { headers: { authorization: 'Bearer abc' } } },
      'x',
    );
    expect(lines.join('')).not.toContain('hunter2-secret');
    expect(lines.join('')).not.toContain('Bearer abc');
  });
});
