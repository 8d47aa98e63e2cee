import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Channel } from '../../api/channels';
import { en } from '../../i18n/en';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { frontRoutes } from '../../test/routes';

const t = en.channels;

const channel = (id: number, patch: Partial<Channel> = {}): Channel => ({
  id,
  name: `hook-${id}`,
  type: 'webhook',
  config: { url: 'https://example.com/h' },
  enabled: true,
  revision: 3,
  created_at: '2026-11-21T12:00:00Z',
  updated_at: '2026-11-21T12:00:00Z',
  delivery_status: 'healthy',
  last_success_at: '2026-11-21T12:00:00Z',
  last_failure_at: null,
  consecutive_failures: 0,
  last_error_code: null,
  last_error: null,
  next_retry_at: null,
  next_probe_at: null,
  pending_count: 0,
  blocked_count: 0,
  ...patch,
});

const routes = (list: Channel[]) => ({
  'GET /api/admin/alerts/channels/': { body: list },
  'POST /api/admin/alerts/channels/': { status: 204 },
  'PUT /api/admin/alerts/channels/1': { status: 204 },
  'PUT /api/admin/alerts/channels/1/enabled': { status: 204 },
  'POST /api/admin/alerts/channels/1/test': { status: 204 },
  'DELETE /api/admin/alerts/channels/3': { status: 204 },
  'POST /api/admin/alerts/channels/telegram/mtproto/code': { body: { login_id: 'L1' } },
  'POST /api/admin/alerts/channels/telegram/mtproto/verify': {
    body: { password_required: true },
  },
  'POST /api/admin/alerts/channels/telegram/mtproto/password': { status: 204 },
});

describe('channels page', () => {
  it('lists channels with health, and a corrupt one can only be deleted', async () => {
    const user = userEvent.setup();
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const api = mockApi({
      ...frontRoutes(),
      ...routes([
        channel(1),
        channel(2, {
          delivery_status: 'degraded',
          last_error_code: 'webhook_http_503',
          blocked_count: 2,
          pending_count: 2,
        }),
        channel(3, { config: null }),
      ]),
    });
    await renderApp('/admin/channels', { admin: true });
    const row2 = (await screen.findByText('hook-2')).closest('tr')!;
    expect(within(row2).getByText(t.status.degraded!)).toBeTruthy();
    expect(within(row2).getByText('webhook_http_503')).toBeTruthy();
    expect(within(row2).getByText(t.blocked(2))).toBeTruthy();
    const row3 = screen.getByText('hook-3').closest('tr')!;
    expect(within(row3).queryByRole('button', { name: t.edit })).toBeNull();
    await user.click(within(row3).getByRole('button', { name: t.remove }));
    await waitFor(() =>
      expect(api.calls.some((c) => c.method === 'DELETE' && c.path.endsWith('/3'))).toBe(true),
    );
    const row1 = screen.getByText('hook-1').closest('tr')!;
    await user.click(within(row1).getByRole('button', { name: t.test }));
    expect(await screen.findByText(t.testSent('hook-1'))).toBeTruthy();
    await user.click(within(row1).getByRole('checkbox'));
    await waitFor(() =>
      expect(
        api.calls.find((c) => c.path === '/api/admin/alerts/channels/1/enabled')?.body,
      ).toEqual({ enabled: false }),
    );
  }, 20_000);

  it('creates an e-mail channel and edits a webhook keeping its secret', async () => {
    const user = userEvent.setup();
    const api = mockApi({ ...frontRoutes(), ...routes([channel(1)]) });
    await renderApp('/admin/channels', { admin: true });
    await user.click(await screen.findByRole('button', { name: t.add }));
    await user.type(screen.getByLabelText(t.name), 'Mail');
    await user.selectOptions(screen.getByLabelText(t.type), 'email');
    await user.type(screen.getByLabelText(t.fields.smtp_host!), 'smtp.example.com');
    await user.type(screen.getByLabelText(t.fields.smtp_port!), '587');
    await user.type(screen.getByLabelText(t.fields.from!), 'dash@example.com');
    await user.type(screen.getByLabelText(t.fields.to!), 'a@example.com, b@example.com');
    await user.selectOptions(screen.getByLabelText(t.digest), '300');
    await user.click(screen.getByRole('button', { name: t.save }));
    await waitFor(() =>
      expect(
        api.calls.find((c) => c.method === 'POST' && c.path === '/api/admin/alerts/channels/')
          ?.body,
      ).toEqual({
        name: 'Mail',
        type: 'email',
        enabled: true,
        config: {
          smtp_host: 'smtp.example.com',
          smtp_port: 587,
          username: '',
          password: '',
          from: 'dash@example.com',
          to: ['a@example.com', 'b@example.com'],
          use_tls: false,
          digest_sec: 300,
        },
      }),
    );
    const row1 = (await screen.findByText('hook-1')).closest('tr')!;
    await user.click(within(row1).getByRole('button', { name: t.edit }));
    await user.click(screen.getByRole('button', { name: t.save }));
    await waitFor(() =>
      expect(api.calls.find((c) => c.method === 'PUT' && c.path.endsWith('/1'))?.body).toEqual({
        name: 'hook-1',
        type: 'webhook',
        enabled: true,
        config: { url: 'https://example.com/h' },
        revision: 3,
      }),
    );
  }, 20_000);

  it('walks the MTProto login: code, verify, two-step password', async () => {
    const user = userEvent.setup();
    const api = mockApi({
      ...frontRoutes(),
      ...routes([
        channel(1, {
          type: 'telegram',
          name: 'me',
          config: { mode: 'mtproto', api_id: 1, phone: '+1', chat_id: 'me', logged_in: false },
        }),
      ]),
    });
    await renderApp('/admin/channels', { admin: true });
    await user.click(await screen.findByRole('button', { name: t.login }));
    await user.click(screen.getByRole('button', { name: t.sendCode }));
    await user.type(await screen.findByLabelText(t.code), '12345');
    await user.click(screen.getByRole('button', { name: t.verify }));
    await user.type(await screen.findByLabelText(t.password), 'hunter2');
    await user.click(screen.getByRole('button', { name: t.submitPassword }));
    expect(await screen.findByText(t.loggedIn)).toBeTruthy();
    expect(api.calls.find((c) => c.path.endsWith('/mtproto/password'))?.body).toEqual({
      login_id: 'L1',
      password: 'hunter2',
    });
  }, 20_000);

  it('a preset fills the URL and body template of a webhook', async () => {
    const user = userEvent.setup();
    const api = mockApi({ ...frontRoutes(), ...routes([]) });
    await renderApp('/admin/channels', { admin: true });
    await user.click(await screen.findByRole('button', { name: t.add }));
    await user.type(screen.getByLabelText(t.name), 'Team chat');
    await user.selectOptions(screen.getByLabelText(t.preset), 'slack');
    expect(screen.getByLabelText<HTMLInputElement>(t.fields.url!).value).toContain(
      'hooks.slack.com',
    );
    await user.click(screen.getByRole('button', { name: t.save }));
    await waitFor(() =>
      expect(
        api.calls.find((c) => c.method === 'POST' && c.path === '/api/admin/alerts/channels/')
          ?.body,
      ).toMatchObject({
        type: 'webhook',
        config: { preset: 'slack', body_template: '{"text":"*{{title}}*\\n{{message}}"}' },
      }),
    );
  }, 20_000);
});
