import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { bearer, cookiesOf, login, proofHeaders } from './helpers.js';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => t.close());

const post = (url: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url, headers });

describe.each(['/api/auth/refresh', '/api/auth/logout'])('%s proof', (url) => {
  it('refuses a missing CSRF header', async () => {
    const s = await login(t);
    const res = await post(url, proofHeaders(s.refresh, s.csrf));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'unauthorized' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('refuses a wrong CSRF header', async () => {
    const s = await login(t);
    expect((await post(url, proofHeaders(s.refresh, s.csrf, 'wrong'))).statusCode).toBe(401);
  });

  it('refuses a CSRF pair that matches itself but not the session', async () => {
    const s = await login(t);
    expect((await post(url, proofHeaders(s.refresh, 'forged', 'forged'))).statusCode).toBe(401);
  });

  it('refuses a missing refresh cookie', async () => {
    const s = await login(t);
    expect((await post(url, { cookie: `csrf=${s.csrf}`, 'x-csrf-token': s.csrf })).statusCode).toBe(
      401,
    );
  });
});

describe('POST /api/auth/refresh', () => {
  it('rotates the refresh token and returns a new access token', async () => {
    const s = await login(t, 'persistent');
    t.clock.advance(60_000);
    const res = await post('/api/auth/refresh', proofHeaders(s.refresh, s.csrf, ` ${s.csrf} `));
    expect(res.statusCode).toBe(200);
    const body = res.json<{ access_token: string; csrf_token: string; expires_at: string }>();
    expect(body.access_token).not.toBe(s.body!.access_token);
    expect(body.csrf_token).not.toBe(s.csrf);
    const cookies = cookiesOf(res);
    expect(cookies.get('refresh')?.value).not.toBe(s.refresh);
    expect(cookies.get('refresh')?.attrs['max-age']).toBe(String(14 * 86_400));
    expect(cookies.get('csrf')?.value).toBe(body.csrf_token);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/auth/sessions/',
          headers: bearer(body.access_token),
        })
      ).statusCode,
    ).toBe(200);
  });

  it('keeps session-only cookies session-only after refresh', async () => {
    const s = await login(t, 'session');
    const res = await post('/api/auth/refresh', proofHeaders(s.refresh, s.csrf, s.csrf));
    expect(cookiesOf(res).get('refresh')?.attrs['max-age']).toBeUndefined();
  });

  it('refuses the stale refresh token after rotation', async () => {
    const s = await login(t);
    const first = await post('/api/auth/refresh', proofHeaders(s.refresh, s.csrf, s.csrf));
    expect(first.statusCode).toBe(200);
    const stale = await post('/api/auth/refresh', proofHeaders(s.refresh, s.csrf, s.csrf));
    expect(stale.statusCode).toBe(401);
    const next = cookiesOf(first);
    const again = await post(
      '/api/auth/refresh',
      proofHeaders(next.get('refresh')!.value, next.get('csrf')!.value, next.get('csrf')!.value),
    );
    expect(again.statusCode).toBe(200);
  });

  it('refuses an expired session (14 days)', async () => {
    const s = await login(t);
    t.clock.advance(14 * 86_400_000);
    expect(
      (await post('/api/auth/refresh', proofHeaders(s.refresh, s.csrf, s.csrf))).statusCode,
    ).toBe(401);
  });
});

describe('POST /api/auth/logout', () => {
  it('revokes the session, clears both cookies and answers 204', async () => {
    const s = await login(t);
    const res = await post('/api/auth/logout', proofHeaders(s.refresh, s.csrf, s.csrf));
    expect(res.statusCode).toBe(204);
    const cookies = cookiesOf(res);
    expect(cookies.get('refresh')?.value).toBe('');
    expect(cookies.get('refresh')?.attrs['max-age']).toBe('0');
    expect(cookies.get('csrf')?.attrs['max-age']).toBe('0');
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/auth/sessions/',
          headers: bearer(s.body!.access_token),
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (await post('/api/auth/refresh', proofHeaders(s.refresh, s.csrf, s.csrf))).statusCode,
    ).toBe(401);
  });

  it('is 204 with a stale refresh token (nothing left to revoke)', async () => {
    const s = await login(t);
    await post('/api/auth/refresh', proofHeaders(s.refresh, s.csrf, s.csrf));
    expect(
      (await post('/api/auth/logout', proofHeaders(s.refresh, s.csrf, s.csrf))).statusCode,
    ).toBe(204);
  });
});
