import { describe, expect, it, vi } from 'vitest';
import { request } from '../api/http';
import { mockApi } from '../test/mock-api';
import { adminGrant } from '../test/render';
import { SessionStore } from './session';

describe('SessionStore', () => {
  it('starts as a guest without asking the server when no CSRF cookie exists', async () => {
    const api = mockApi({});
    const s = new SessionStore();
    await s.init();
    expect(s.getState().status).toBe('guest');
    expect(api.calls).toHaveLength(0);
  });

  it('resumes a session with the refresh cookie and the CSRF header', async () => {
    document.cookie = 'csrf=abc-123; path=/';
    const api = mockApi({ 'POST /api/auth/refresh': adminGrant });
    const s = new SessionStore();
    await s.init();
    expect(s.getState().status).toBe('admin');
    expect(s.token()).toBe('access-1');
    const [call] = api.callsTo('POST', '/api/auth/refresh');
    expect(call?.headers['x-csrf-token']).toBe('abc-123');
    expect(call?.headers.authorization).toBeUndefined();
  });

  it('stays a guest, not "expired", when the refresh cookie is gone', async () => {
    document.cookie = 'csrf=stale; path=/';
    mockApi({
      'POST /api/auth/refresh': { status: 401, body: { code: 'unauthorized', message: 'x' } },
    });
    const s = new SessionStore();
    await s.init();
    expect(s.getState()).toEqual({ status: 'guest', expired: false });
  });

  it('logs in with the chosen persistence and keeps the token in memory only', async () => {
    const api = mockApi({ 'POST /api/auth/login': adminGrant });
    const s = new SessionStore();
    await s.login('pw', 'persistent');
    expect(api.calls[0]?.body).toEqual({ password: 'pw', persistence: 'persistent' });
    expect(s.getState().status).toBe('admin');
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
  });

  it('shares one refresh between concurrent 401s', async () => {
    let refreshes = 0;
    mockApi({
      'POST /api/auth/login': { body: { ...adminGrant.body, access_token: 'old' } },
      'POST /api/auth/refresh': () => {
        refreshes++;
        return { body: { ...adminGrant.body, access_token: 'fresh' } };
      },
      'GET /api/admin/groups/': (c) =>
        c.headers.authorization === 'Bearer fresh'
          ? { body: [] }
          : { status: 401, body: { code: 'unauthorized', message: 'x' } },
    });
    const s = new SessionStore();
    await s.login('pw', 'session');
    await Promise.all([request('/api/admin/groups/'), request('/api/admin/groups/')]);
    expect(refreshes).toBe(1);
  });

  it('marks the session expired when a held session cannot be refreshed', async () => {
    mockApi({
      'POST /api/auth/login': adminGrant,
      'POST /api/auth/refresh': { status: 401, body: { code: 'unauthorized', message: 'x' } },
      'GET /api/admin/groups/': { status: 401, body: { code: 'unauthorized', message: 'x' } },
    });
    const s = new SessionStore();
    await s.login('pw', 'session');
    await expect(request('/api/admin/groups/')).rejects.toMatchObject({ code: 'unauthorized' });
    expect(s.getState()).toEqual({ status: 'guest', expired: true });
    expect(s.token()).toBeNull();
  });

  it('logs out with the CSRF header and forgets the token even if the session was gone', async () => {
    document.cookie = 'csrf=abc; path=/';
    const api = mockApi({
      'POST /api/auth/login': adminGrant,
      'POST /api/auth/logout': { status: 401, body: { code: 'unauthorized', message: 'x' } },
    });
    const s = new SessionStore();
    await s.login('pw', 'session');
    await s.logout();
    expect(api.callsTo('POST', '/api/auth/logout')[0]?.headers['x-csrf-token']).toBe('abc');
    expect(s.getState()).toEqual({ status: 'guest', expired: false });
    expect(s.token()).toBeNull();
  });
});

describe('SessionStore refresh timer', () => {
  it('refreshes a minute before the access token expires, and not in a loop for far expiries', async () => {
    vi.useFakeTimers();
    try {
      const now = Date.now();
      let refreshes = 0;
      mockApi({
        'POST /api/auth/login': {
          body: { ...adminGrant.body, expires_at: new Date(now + 15 * 60_000).toISOString() },
        },
        'POST /api/auth/refresh': () => {
          refreshes++;
          return { body: adminGrant.body }; // expires in 2099
        },
      });
      const s = new SessionStore();
      await s.login('pw', 'session');
      await vi.advanceTimersByTimeAsync(13 * 60_000);
      expect(refreshes).toBe(0);
      await vi.advanceTimersByTimeAsync(60_000 + 10);
      expect(refreshes).toBe(1);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(refreshes).toBe(1);
      s.drop(false);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('SessionStore after a sleep', () => {
  it('starts a refresh when asked for a token that has already expired', async () => {
    let refreshes = 0;
    mockApi({
      'POST /api/auth/login': {
        body: { ...adminGrant.body, expires_at: new Date(Date.now() - 1000).toISOString() },
      },
      'POST /api/auth/refresh': () => {
        refreshes++;
        return adminGrant;
      },
    });
    const s = new SessionStore();
    await s.login('pw', 'session');
    expect(s.token()).toBe('access-1');
    await vi.waitFor(() => expect(refreshes).toBe(1));
    s.token();
    expect(refreshes).toBe(1);
    s.drop(false);
  });
});
