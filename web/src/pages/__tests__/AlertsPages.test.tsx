import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AlertEvent, AlertMounts, AlertRule } from '../../api/alerts';
import { en } from '../../i18n/en';
import { adminGroups } from '../../test/fixtures/nodes';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { frontRoutes } from '../../test/routes';

const t = en.alerts;

const rule: AlertRule = {
  id: 1,
  name: 'CPU high',
  enabled: true,
  metric: 'cpu.usage_ratio',
  operator: '>',
  threshold: 0.9,
  duration_sec: 60,
  cooldown_min: 5,
  threshold_mode: 'static',
  threshold_offset: 0,
  clear_threshold: 0.8,
  repeat_interval_min: 0,
  repeat_max: null,
  created_at: '2026-11-21T12:00:00Z',
  updated_at: '2026-11-21T12:00:00Z',
};

const mounts: AlertMounts = {
  rules: [
    {
      id: -1,
      name: 'node_offline',
      metric: 'node.offline',
      builtin: true,
      enabled: true,
      default_mounted: true,
    },
    {
      id: 1,
      name: 'CPU high',
      metric: 'cpu.usage_ratio',
      builtin: false,
      enabled: true,
      default_mounted: false,
    },
  ],
  nodes: [
    {
      id: 1,
      name: 'alpha',
      hostname: 'a.example',
      group_ids: [1],
      mounts: [
        { rule_id: -1, mounted: true },
        { rule_id: 1, mounted: false },
      ],
    },
    {
      id: 2,
      name: 'beta',
      hostname: 'b.example',
      group_ids: [],
      mounts: [
        { rule_id: -1, mounted: true },
        { rule_id: 1, mounted: false },
      ],
    },
  ],
};

const event = (id: number, patch: Partial<AlertEvent> = {}): AlertEvent => ({
  id,
  rule_id: 1,
  rule_generation: 1,
  server_id: 1,
  server_name: 'alpha',
  server_hostname: 'a.example',
  status: 'open',
  metric: 'cpu.usage_ratio',
  rule_name: 'CPU high',
  first_trigger_at: '2026-11-21T12:00:00Z',
  last_trigger_at: '2026-11-21T12:01:00Z',
  current_value: 0.95,
  effective_threshold: 0.9,
  message: `cpu.usage_ratio = 0.95 > 0.9 (event ${id})`,
  silenced: false,
  flapping: false,
  repeat_count: 0,
  ...patch,
});

const alertRoutes = () => ({
  'GET /api/admin/alerts/rules/': { body: [rule] },
  'GET /api/admin/alerts/mounts/': { body: mounts },
  'GET /api/admin/alerts/settings/': {
    body: {
      enabled: true,
      channel_ids: [],
      repeat_max: 3,
      flap_threshold: 0,
      flap_window_min: 60,
      created_at: '',
      updated_at: '',
    },
  },
  'GET /api/admin/alerts/silences/': {
    body: {
      items: [
        {
          id: 4,
          scope: 'group',
          target_id: 1,
          target_name: 'Default',
          ends_at: '2026-11-21T13:00:00Z',
          note: 'patching',
          active: true,
          created_at: '2026-11-21T12:00:00Z',
        },
      ],
    },
  },
  'POST /api/admin/alerts/silences/': { status: 201, body: { id: 5 } },
  'DELETE /api/admin/alerts/silences/4': { status: 204 },
  'GET /api/admin/groups/': { body: adminGroups() },
  'POST /api/admin/alerts/rules/': { status: 204 },
  'PATCH /api/admin/alerts/rules/1': { status: 204 },
  'PUT /api/admin/alerts/mounts/': { status: 204 },
  'PUT /api/admin/alerts/settings/': { status: 204 },
});

describe('alert rules page', () => {
  it('lists user and built-in rules and creates a rule from the metric catalog', async () => {
    const user = userEvent.setup();
    const api = mockApi({ ...frontRoutes(), ...alertRoutes() });
    await renderApp('/admin/alerts', { admin: true });
    const row = (await screen.findByText('CPU high', { selector: 'td' })).closest('tr')!;
    expect(within(row).getByText(`> 0.9 (${t.clearAt('0.8')})`)).toBeTruthy();
    expect(screen.getByText('node_offline', { exact: false, selector: 'td' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: t.addRule }));
    await user.type(screen.getByLabelText(t.name), 'Load');
    await user.selectOptions(screen.getByLabelText(t.metric), 'cpu.load1');
    await user.selectOptions(screen.getByLabelText(t.thresholdMode), 'core_plus');
    await user.clear(screen.getByLabelText(t.threshold));
    await user.type(screen.getByLabelText(t.threshold), '1.5');
    await user.selectOptions(screen.getByLabelText(t.duration), '300');
    await user.type(screen.getByLabelText(t.clearThreshold), '1');
    await user.clear(screen.getByLabelText(t.repeatInterval));
    await user.type(screen.getByLabelText(t.repeatInterval), '15');
    await user.type(screen.getByLabelText(t.repeatMax), '2');
    await user.click(screen.getByRole('button', { name: en.app.save }));
    await waitFor(() =>
      expect(
        api.calls.some((c) => c.path === '/api/admin/alerts/rules/' && c.method === 'POST'),
      ).toBe(true),
    );
    expect(
      api.calls.find((c) => c.path === '/api/admin/alerts/rules/' && c.method === 'POST')?.body,
    ).toEqual({
      name: 'Load',
      enabled: true,
      metric: 'cpu.load1',
      operator: '>',
      threshold: 1.5,
      duration_sec: 300,
      cooldown_min: 0,
      threshold_mode: 'core_plus',
      threshold_offset: 0,
      clear_threshold: 1,
      repeat_interval_min: 15,
      repeat_max: 2,
    });
  }, 20_000);

  it('lists silences, adds one for a node and deletes one', async () => {
    const user = userEvent.setup();
    const api = mockApi({ ...frontRoutes(), ...alertRoutes() });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    try {
      await renderApp('/admin/alerts', { admin: true });
      const row = (await screen.findByText('patching')).closest('tr')!;
      expect(within(row).getByText('Default')).toBeTruthy();
      expect(within(row).getByText(t.silenceActive)).toBeTruthy();
      await user.selectOptions(screen.getByLabelText(t.silenceTarget), '2');
      await user.selectOptions(screen.getByLabelText(t.silenceFor), '240');
      await user.type(screen.getByLabelText(t.silenceNote), 'reboot');
      const before = Date.now();
      await user.click(screen.getByRole('button', { name: t.addSilence }));
      await waitFor(() =>
        expect(api.calls.some((c) => c.method === 'POST' && c.path.endsWith('/silences/'))).toBe(
          true,
        ),
      );
      const body = api.calls.find((c) => c.method === 'POST' && c.path.endsWith('/silences/'))
        ?.body as { scope: string; target_id: number; ends_at: string; note: string };
      expect(body).toMatchObject({ scope: 'node', target_id: 2, note: 'reboot' });
      const ends = Date.parse(body.ends_at) - before;
      expect(ends).toBeGreaterThanOrEqual(240 * 60_000 - 1000);
      expect(ends).toBeLessThanOrEqual(240 * 60_000 + 60_000);
      await user.click(within(row).getByRole('button', { name: t.deleteSilence }));
      await waitFor(() =>
        expect(
          api.calls.some((c) => c.method === 'DELETE' && c.path === '/api/admin/alerts/silences/4'),
        ).toBe(true),
      );
    } finally {
      confirm.mockRestore();
    }
  }, 20_000);

  it('saves the repeat cap and the flap settings', async () => {
    const user = userEvent.setup();
    const api = mockApi({ ...frontRoutes(), ...alertRoutes() });
    await renderApp('/admin/alerts', { admin: true });
    const flap = await screen.findByLabelText(t.flapThreshold);
    await user.clear(flap);
    await user.type(flap, '5');
    await user.click(screen.getByRole('button', { name: t.saveSettings }));
    await waitFor(() =>
      expect(api.calls.some((c) => c.method === 'PUT' && c.path.endsWith('/settings/'))).toBe(true),
    );
    expect(
      api.calls.find((c) => c.method === 'PUT' && c.path.endsWith('/settings/'))?.body,
    ).toEqual({
      enabled: true,
      channel_ids: [],
      repeat_max: 3,
      flap_threshold: 5,
      flap_window_min: 60,
    });
  }, 20_000);

  it('mounts a rule on one node and on a whole group', async () => {
    const user = userEvent.setup();
    const api = mockApi({ ...frontRoutes(), ...alertRoutes() });
    await renderApp('/admin/alerts', { admin: true });
    await user.selectOptions(await screen.findByLabelText(t.mountRule), '1');
    await user.click(screen.getByLabelText(t.mountedOn('beta')));
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({
      rule_ids: [1],
      server_ids: [2],
      mounted: true,
    });
    await user.selectOptions(screen.getByLabelText(t.mountGroup), '1');
    await user.click(screen.getByRole('button', { name: t.mountOn }));
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'PUT')).toHaveLength(2));
    expect(api.calls.filter((c) => c.method === 'PUT')[1]?.body).toEqual({
      rule_ids: [1],
      server_ids: [1],
      mounted: true,
    });
  });
});

describe('alert events page', () => {
  it('shows the summary, the events with why they fired, filters, and loads more by cursor', async () => {
    const user = userEvent.setup();
    const api = mockApi({
      ...frontRoutes(),
      'GET /api/admin/alerts/events/summary': {
        body: {
          items: [
            {
              server_id: 1,
              open_count: 2,
              last_trigger_at: '2026-11-21T12:01:00Z',
              metric: 'cpu.usage_ratio',
              rule_name: 'CPU high',
              metrics: ['cpu.usage_ratio', 'mem.used'],
            },
          ],
        },
      },
      'GET /api/admin/alerts/events/servers': { body: { items: [{ id: 1, name: 'alpha' }] } },
      'GET /api/admin/alerts/events/': (c) =>
        c.query.get('cursor')
          ? { body: { items: [event(1)], next_cursor: null, has_more: false } }
          : c.query.get('status') === 'closed'
            ? {
                body: {
                  items: [event(5, { status: 'closed', close_reason: 'condition_cleared' })],
                  next_cursor: null,
                  has_more: false,
                },
              }
            : { body: { items: [event(2)], next_cursor: 'c1', has_more: true } },
    });
    await renderApp('/admin/alert-events', { admin: true });
    const summary = (await screen.findByText(t.openCount(2))).closest('li')!;
    await waitFor(() => expect(summary.textContent).toContain('alpha'));
    expect(await screen.findByText('cpu.usage_ratio = 0.95 > 0.9 (event 2)')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: t.loadMore }));
    expect(await screen.findByText('cpu.usage_ratio = 0.95 > 0.9 (event 1)')).toBeTruthy();
    expect(api.calls.find((c) => c.query.get('cursor'))?.query.get('cursor')).toBe('c1');
    await user.selectOptions(screen.getByLabelText(t.status), 'closed');
    await user.click(screen.getByRole('button', { name: t.apply }));
    expect(
      await screen.findByText(`${t.statusClosed} · ${t.reasons.condition_cleared}`),
    ).toBeTruthy();
  });

  it('shows why it fired, silenced and flapping marks, and acknowledges an open event', async () => {
    const user = userEvent.setup();
    const why = {
      from: '2026-11-21T12:00:00Z',
      to: '2026-11-21T12:01:00Z',
      duration_sec: 60,
      operator: '>',
      threshold: 0.9,
      clear_threshold: 0.8,
      values: [0.93, 0.95],
      samples: 21,
      min: 0.91,
      max: 0.99,
    };
    const api = mockApi({
      ...frontRoutes(),
      'GET /api/admin/alerts/events/summary': { body: { items: [] } },
      'GET /api/admin/alerts/events/servers': { body: { items: [] } },
      'GET /api/admin/alerts/events/': {
        body: {
          items: [
            event(7, { why, silenced: true, repeat_count: 2 }),
            event(8, { flapping: true, acked_at: '2026-11-21T12:02:00Z' }),
          ],
          next_cursor: null,
          has_more: false,
        },
      },
      'POST /api/admin/alerts/events/7/ack': { status: 204 },
    });
    await renderApp('/admin/alert-events', { admin: true });
    const row = (await screen.findByText(t.silencedBadge)).closest('tr')!;
    const line = row.querySelector('[data-why]')?.textContent ?? '';
    expect(line).toContain('0.93, 0.95');
    expect(line).toContain('21');
    expect(line).toContain(t.clearAt('0.8'));
    expect(within(row).getByText(t.repeats(2))).toBeTruthy();
    const other = screen.getByText(t.flappingBadge).closest('tr')!;
    expect(within(other).queryByRole('button', { name: t.ack })).toBeNull();
    await user.click(within(row).getByRole('button', { name: t.ack }));
    await waitFor(() =>
      expect(api.calls.some((c) => c.method === 'POST' && c.path.endsWith('/7/ack'))).toBe(true),
    );
    await waitFor(() => expect(within(row).queryByRole('button', { name: t.ack })).toBeNull());
  });
});

describe('dashboard alert badge', () => {
  it('shows open alerts on the node card for admins', async () => {
    mockApi({
      ...frontRoutes(),
      'GET /api/admin/alerts/events/summary': {
        body: {
          items: [
            {
              server_id: 2,
              open_count: 3,
              last_trigger_at: '2026-11-21T12:01:00Z',
              metric: 'mem.used',
              rule_name: 'x',
              metrics: ['mem.used'],
            },
          ],
        },
      },
    });
    await renderApp('/', { admin: true });
    const badge = await screen.findByText(t.badge(3));
    expect(badge.closest('article')?.getAttribute('aria-label')).toBe('beta');
    expect(badge.getAttribute('href')).toBe('/admin/alert-events?server_id=2');
  });
});
