import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { bearer, cookiesOf, login, proofHeaders } from './helpers.js';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => t.close());

const listSessions = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/auth/sessions/', headers: bearer(token) });

describe('admin guard (GET /api/auth/sessions/)', () => {
  it('accepts a valid token', async () => {
    const { body } = await login(t);
    expect((await listSessions(body!.access_token)).statusCode).toBe(200);
  });

  it.each([
    ['no token', {}],
    ['a malformed header', { authorization: 'Bearer' }],
    ['a wrong scheme', { authorization: 'Basic abc' }],
    ['a lowercase scheme', { authorization: 'bearer abc.def' }],
    ['a forged token', { authorization: 'Bearer eyJzaWQiOiJ4In0.AAAA' }],
  ])('refuses %s with 401 unauthorized and no-store', async (_n, headers) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/sessions/', headers });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'unauthorized' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('refuses a token whose signature was altered', async () => {
    const { body } = await login(t);
    const token = body!.access_token;
    const tampered = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    expect((await listSessions(tampered)).statusCode).toBe(401);
  });

  it('refuses an expired token (15 minutes)', async () => {
    const { body } = await login(t);
    t.clock.advance(15 * 60_000 - 1);
    expect((await listSessions(body!.access_token)).statusCode).toBe(200);
    t.clock.advance(1);
    expect((await listSessions(body!.access_token)).statusCode).toBe(401);
  });

  it('refuses a token of a revoked session at once', async () => {
    const a = await login(t);
    const b = await login(t);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${(await listSessions(a.body!.access_token)).json<{ sessions: Array<{ id: string; current: boolean }> }>().sessions.find((s) => s.current)!.id}`,
      headers: bearer(b.body!.access_token),
    });
    expect(res.statusCode).toBe(204);
    expect((await listSessions(a.body!.access_token)).statusCode).toBe(401);
    expect((await listSessions(b.body!.access_token)).statusCode).toBe(200);
  });

  it('keeps sessions across a restart (stored, not only in memory)', async () => {
    const { body } = await login(t);
    await t.deps.auth.load();
    expect((await listSessions(body!.access_token)).statusCode).toBe(200);
  });
});

describe('optional guard', () => {
  it('treats an invalid token as anonymous on public reads', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/version/',
      headers: { authorization: 'Bearer nope' },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('sessions list and revocation', () => {
  it('lists sessions with the caller marked current', async () => {
    const a = await login(t, 'session');
    await login(t, 'persistent');
    const res = await listSessions(a.body!.access_token);
    const { sessions } = res.json<{
      sessions: Array<{ id: string; expires_at: string; session_only: boolean; current: boolean }>;
    }>();
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(sessions.find((s) => s.current)?.session_only).toBe(true);
    expect(sessions.find((s) => !s.current)?.session_only).toBe(false);
    expect(sessions[0]?.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('DELETE current ends the caller session and clears cookies', async () => {
    const a = await login(t);
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/auth/sessions/current',
      headers: bearer(a.body!.access_token),
    });
    expect(res.statusCode).toBe(204);
    expect(cookiesOf(res).get('refresh')?.attrs['max-age']).toBe('0');
    expect((await listSessions(a.body!.access_token)).statusCode).toBe(401);
  });

  it('DELETE all ends every session, the caller own token included', async () => {
    const a = await login(t);
    const b = await login(t);
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/auth/sessions/',
      headers: bearer(a.body!.access_token),
    });
    expect(res.statusCode).toBe(204);
    expect((await listSessions(a.body!.access_token)).statusCode).toBe(401);
    expect((await listSessions(b.body!.access_token)).statusCode).toBe(401);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: proofHeaders(b.refresh, b.csrf, b.csrf),
    });
    expect(refresh.statusCode).toBe(401);
    const c = await login(t);
    expect(
      (await listSessions(c.body!.access_token)).json<{ sessions: unknown[] }>().sessions,
    ).toHaveLength(1);
  });

  it('DELETE {sid} of an unknown id is 204; a blank id is 400 invalid_session', async () => {
    const a = await login(t);
    const unknown = await t.app.inject({
      method: 'DELETE',
      url: '/api/auth/sessions/nope',
      headers: bearer(a.body!.access_token),
    });
    expect(unknown.statusCode).toBe(204);
    const blank = await t.app.inject({
      method: 'DELETE',
      url: '/api/auth/sessions/%20',
      headers: bearer(a.body!.access_token),
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ code: 'invalid_session' });
  });
});
