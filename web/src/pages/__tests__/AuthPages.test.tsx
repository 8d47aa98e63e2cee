import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { en } from '../../i18n/en';
import { mockApi } from '../../test/mock-api';
import { adminGrant, renderApp } from '../../test/render';
import { frontRoutes } from '../../test/routes';

describe('Login', () => {
  it('signs in for the browser session by default and returns to the asked page', async () => {
    const api = mockApi({
      ...frontRoutes(),
      'POST /api/auth/login': adminGrant,
      'GET /api/admin/groups/': { body: [] },
    });
    const user = userEvent.setup();
    await renderApp('/login?next=%2Fadmin%2Fgroups');
    await user.type(await screen.findByLabelText(en.login.password), 'hunter22');
    await user.click(screen.getByRole('button', { name: en.login.submit }));
    expect(await screen.findByRole('heading', { name: en.admin.groups.title })).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/auth/login')[0]?.body).toEqual({
      password: 'hunter22',
      persistence: 'session',
    });
    expect(screen.getByRole('button', { name: en.nav.logout })).toBeInTheDocument();
  });

  it('asks for a persistent session when "keep me signed in" is ticked', async () => {
    const api = mockApi({ ...frontRoutes(), 'POST /api/auth/login': adminGrant });
    const user = userEvent.setup();
    await renderApp('/login');
    await user.type(await screen.findByLabelText(en.login.password), 'pw');
    await user.click(screen.getByLabelText(en.login.remember));
    await user.click(screen.getByRole('button', { name: en.login.submit }));
    await waitFor(() => expect(api.callsTo('POST', '/api/auth/login')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/auth/login')[0]?.body).toMatchObject({
      persistence: 'persistent',
    });
  });

  it('says the password is wrong on 401 and explains rate limiting on 429', async () => {
    let n = 0;
    mockApi({
      ...frontRoutes(),
      'POST /api/auth/login': () =>
        n++ === 0
          ? { status: 401, body: { code: 'unauthorized', message: 'invalid credentials' } }
          : { status: 429, body: { code: 'rate_limited', message: 'too many requests' } },
    });
    const user = userEvent.setup();
    await renderApp('/login');
    await user.type(await screen.findByLabelText(en.login.password), 'nope');
    await user.click(screen.getByRole('button', { name: en.login.submit }));
    expect(await screen.findByRole('alert')).toHaveTextContent(en.login.wrongPassword);
    await user.click(screen.getByRole('button', { name: en.login.submit }));
    expect(await screen.findByRole('alert')).toHaveTextContent(en.errors.byCode.rate_limited!);
  });

  it('sends guests who open the admin console to the login page', async () => {
    mockApi(frontRoutes());
    await renderApp('/admin/nodes');
    expect(await screen.findByRole('heading', { name: en.login.title })).toBeInTheDocument();
  });

  it('signs out and becomes a guest', async () => {
    const api = mockApi({ ...frontRoutes(), 'POST /api/auth/logout': { status: 204 } });
    const user = userEvent.setup();
    await renderApp('/', { admin: true });
    await user.click(await screen.findByRole('button', { name: en.nav.logout }));
    expect(await screen.findByRole('link', { name: en.nav.login })).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/auth/logout')[0]?.headers['x-csrf-token']).toBe('test-csrf');
    expect(screen.queryByRole('link', { name: en.nav.admin })).not.toBeInTheDocument();
  });
});

describe('Sessions', () => {
  const sessions = [
    { id: 'aaa-1', expires_at: '2099-01-01T00:00:00Z', session_only: true, current: true },
    { id: 'bbb-2', expires_at: '2099-01-02T00:00:00Z', session_only: false, current: false },
  ];

  it('lists sessions and revokes another one', async () => {
    let list = sessions;
    const api = mockApi({
      ...frontRoutes(),
      'GET /api/auth/sessions/': () => ({ body: { sessions: list } }),
      'DELETE /api/auth/sessions/bbb-2': () => {
        list = sessions.slice(0, 1);
        return { status: 204 };
      },
    });
    const user = userEvent.setup();
    await renderApp('/sessions', { admin: true });
    expect(await screen.findByText('bbb-2')).toBeInTheDocument();
    expect(screen.getByText(en.sessions.current)).toBeInTheDocument();
    expect(screen.getByText(en.sessions.persistent)).toBeInTheDocument();
    const buttons = screen.getAllByRole('button', { name: en.sessions.revoke });
    await user.click(buttons[1]!);
    await waitFor(() => expect(screen.queryByText('bbb-2')).not.toBeInTheDocument());
    expect(api.callsTo('DELETE', '/api/auth/sessions/bbb-2')).toHaveLength(1);
  });

  it('signing out everywhere ends this session too', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const api = mockApi({
      ...frontRoutes(),
      'GET /api/auth/sessions/': { body: { sessions } },
      'DELETE /api/auth/sessions/': { status: 204 },
    });
    const user = userEvent.setup();
    await renderApp('/sessions', { admin: true });
    await user.click(await screen.findByRole('button', { name: en.sessions.revokeAll }));
    expect(await screen.findByRole('heading', { name: en.login.title })).toBeInTheDocument();
    expect(api.callsTo('DELETE', '/api/auth/sessions/')).toHaveLength(1);
  });
});
