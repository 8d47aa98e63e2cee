import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { en } from '../../i18n/en';
import { adminGroups, adminNode, systemSettings, trafficSettings } from '../../test/fixtures/nodes';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { deploy, nodeStore } from '../../test/admin-nodes';
import { frontRoutes } from '../../test/routes';

const t = en.admin.nodes;
/** The settings page also shows the Dash update and storage panels; these tests are about the form. */
const dashUpdateIdle = {
  'GET /api/admin/system/dash-update/status': {
    body: { status: 'idle', available: false, current_version: '1.0.0' },
  },
  'GET /api/admin/system/storage': {
    body: {
      database_bytes: 4096,
      used_bytes: 4096,
      raw_history: {
        bytes: 0,
        points: 0,
        bytes_per_report: null,
        open_rows: 0,
        open_bytes: 0,
        oldest_at: null,
      },
      growth_bytes_per_day: null,
      budget: {
        max_bytes: null,
        state: 'none',
        raw_retention_days: 8,
        raw_kept_from: null,
        days_until_full: null,
      },
    },
  },
};
const fleet = () => [
  adminNode(1, 'alpha', { tags: ['prod'] }),
  adminNode(2, 'beta', {
    version: { version: '0.1.0', is_outdated: false, supports_auto_update: false },
  }),
  adminNode(3, 'gamma'),
];

describe('Admin: nodes', () => {
  it(
    'creates a node on save, not on open, and shows its install command to copy',
    { timeout: 20_000 },
    async () => {
      const store = nodeStore(fleet());
      const api = mockApi({ ...frontRoutes(), ...store.routes });
      const user = userEvent.setup();
      await renderApp('/admin/nodes', { admin: true });
      await screen.findByRole('button', { name: t.edit('alpha') });
      await user.click(screen.getByRole('button', { name: t.add }));
      // Opening the form creates nothing; cancelling leaves no stray node.
      let form = await screen.findByRole('dialog', { name: t.newTitle });
      expect(api.callsTo('POST', '/api/admin/nodes/')).toHaveLength(0);
      await user.click(within(form).getByRole('button', { name: en.app.cancel }));
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(api.callsTo('POST', '/api/admin/nodes/')).toHaveLength(0);

      await user.click(screen.getByRole('button', { name: t.add }));
      form = await screen.findByRole('dialog', { name: t.newTitle });
      await user.type(within(form).getByLabelText(t.name), 'web-1');
      await user.type(within(form).getByLabelText(t.tags), 'prod, eu');
      await user.click(within(form).getByRole('button', { name: t.create }));
      const dialog = await screen.findByRole('dialog', { name: t.editTitle('web-1') });
      expect(api.callsTo('POST', '/api/admin/nodes/')).toHaveLength(1);
      expect(api.callsTo('PATCH', '/api/admin/nodes/4')[0]?.body).toEqual({
        name: 'web-1',
        tags: ['prod', 'eu'],
      });
      const command = await within(dialog).findByLabelText(t.install);
      expect(command).toHaveValue(`${deploy.scripts.linux.command_prefix}NewSecret1234567`);
      await user.click(within(dialog).getByRole('radio', { name: 'windows' }));
      expect(within(dialog).getByLabelText(t.install)).toHaveValue(
        `${deploy.scripts.windows.command_prefix}NewSecret1234567`,
      );
      // A node that never reported offers no upgrade.
      expect(within(dialog).queryByRole('button', { name: t.upgrade })).not.toBeInTheDocument();
    },
  );

  it('warns about a loopback install address and says which agent builds are published', async () => {
    const store = nodeStore(fleet());
    const warning =
      '127.0.0.1:8080 is a loopback address: only an agent on this machine can reach it.';
    mockApi({
      ...frontRoutes(),
      ...store.routes,
      'GET /api/admin/nodes/deploy': {
        body: {
          ...deploy,
          address: { url: 'http://127.0.0.1:8080', source: 'request', warning },
          agents: [
            {
              id: 'linux-amd64',
              asset: 'linux/node_linux_amd64',
              os: 'linux',
              arch: 'amd64',
              published: true,
            },
            {
              id: 'windows-amd64',
              asset: 'windows/node_windows_amd64.exe',
              os: 'windows',
              arch: 'amd64',
              published: false,
            },
          ],
          add_agents_command: 'make agents',
        },
      },
    });
    const user = userEvent.setup();
    await renderApp('/admin/nodes', { admin: true });
    await user.click(await screen.findByRole('button', { name: t.edit('alpha') }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText(warning)).toBeInTheDocument();
    const builds = within(dialog).getByRole('list', { name: t.agentBuilds });
    expect(within(builds).getByText('linux-amd64').parentElement).toHaveTextContent(
      t.agentPublished,
    );
    expect(within(builds).getByText('windows-amd64').parentElement).toHaveTextContent(
      t.agentNotPublished,
    );
    expect(within(dialog).getByText(t.agentBuildsMissing('make agents'))).toBeInTheDocument();
    expect(within(dialog).queryByText(t.noBuildForPlatform)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: 'windows' }));
    expect(within(dialog).getByText(t.noBuildForPlatform)).toBeInTheDocument();
  });

  it('edits name, tags, groups and guest visibility with one PATCH of the changes', async () => {
    const store = nodeStore(fleet());
    const api = mockApi({ ...frontRoutes(), ...store.routes });
    const user = userEvent.setup();
    await renderApp('/admin/nodes', { admin: true });
    await user.click(await screen.findByRole('button', { name: t.edit('alpha') }));
    const dialog = await screen.findByRole('dialog');
    const name = within(dialog).getByLabelText(t.name);
    await user.clear(name);
    await user.type(name, 'alpha-renamed');
    const tags = within(dialog).getByLabelText(t.tags);
    await user.clear(tags);
    await user.type(tags, 'prod, eu-west');
    await user.click(within(dialog).getByLabelText('edge'));
    await user.click(within(dialog).getByLabelText(t.guestVisible));
    await user.click(within(dialog).getByRole('button', { name: en.app.save }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('PATCH', '/api/admin/nodes/1')[0]?.body).toEqual({
      name: 'alpha-renamed',
      tags: ['prod', 'eu-west'],
      group_ids: [1, 2],
      is_guest_visible: true,
    });
    expect(await screen.findByText('alpha-renamed')).toBeInTheDocument();
  });

  it('saves billing cycle and direction settings as the API requires', async () => {
    const store = nodeStore(fleet());
    const api = mockApi({ ...frontRoutes(), ...store.routes });
    const user = userEvent.setup();
    await renderApp('/admin/nodes', { admin: true });
    await user.click(await screen.findByRole('button', { name: t.edit('alpha') }));
    const dialog = await screen.findByRole('dialog');
    await user.selectOptions(within(dialog).getByLabelText(t.cycleMode), 'clamp_to_month_end');
    const day = within(dialog).getByLabelText(t.startDay);
    await user.clear(day);
    await user.type(day, '15');
    await user.type(within(dialog).getByLabelText(t.timezone), 'Europe/Paris');
    await user.selectOptions(within(dialog).getByLabelText(t.direction), 'both');
    await user.click(within(dialog).getByRole('button', { name: en.app.save }));
    await waitFor(() => expect(api.callsTo('PATCH', '/api/admin/nodes/1')).toHaveLength(1));
    expect(api.callsTo('PATCH', '/api/admin/nodes/1')[0]?.body).toEqual({
      traffic_cycle_mode: 'clamp_to_month_end',
      traffic_billing_start_day: 15,
      traffic_billing_timezone: 'Europe/Paris',
      traffic_direction_mode: 'both',
    });
  });

  it('shows an API validation error by its code and keeps the dialog open', async () => {
    const store = nodeStore(fleet());
    mockApi({
      ...frontRoutes(),
      ...store.routes,
      'PATCH /api/admin/nodes/1': {
        status: 400,
        body: { code: 'invalid_traffic_billing_timezone', message: 'unknown time zone' },
      },
    });
    const user = userEvent.setup();
    await renderApp('/admin/nodes', { admin: true });
    await user.click(await screen.findByRole('button', { name: t.edit('alpha') }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(t.timezone), 'Mars/Olympus');
    await user.click(within(dialog).getByRole('button', { name: en.app.save }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      en.errors.byCode.invalid_traffic_billing_timezone!,
    );
  });

  it('rotates the secret, queues an upgrade when offered, and deletes', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const store = nodeStore(fleet());
    const api = mockApi({ ...frontRoutes(), ...store.routes });
    const user = userEvent.setup();
    await renderApp('/admin/nodes', { admin: true });
    await user.click(await screen.findByRole('button', { name: t.edit('alpha') }));
    let dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: t.rotateSecret }));
    await within(dialog).findByText(t.secretRotated);
    const sent = api.callsTo('PATCH', '/api/admin/nodes/1')[0]?.body as { secret: string };
    expect(sent.secret).toMatch(/^[A-Za-z0-9]{24}$/);
    await waitFor(() => expect(within(dialog).getByLabelText(t.secret)).toHaveValue(sent.secret));
    await user.click(within(dialog).getByRole('button', { name: t.upgrade }));
    await within(dialog).findByText(t.upgradeQueued);
    expect(api.callsTo('POST', '/api/admin/nodes/1/upgrade')).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: s_close() }));

    await user.click(screen.getByRole('button', { name: t.edit('beta') }));
    dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByRole('button', { name: t.upgrade })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: t.delete }));
    await waitFor(() => expect(screen.queryByText('beta')).not.toBeInTheDocument());
    expect(api.callsTo('DELETE', '/api/admin/nodes/2')).toHaveLength(1);
  });

  it('reorders with the keyboard-reachable arrows and saves the whole order', async () => {
    const store = nodeStore(fleet());
    const api = mockApi({ ...frontRoutes(), ...store.routes });
    const user = userEvent.setup();
    await renderApp('/admin/nodes', { admin: true });
    await user.click(await screen.findByRole('button', { name: t.moveDown('alpha') }));
    await user.click(screen.getByRole('button', { name: t.moveUp('gamma') }));
    const names = () =>
      Array.from(document.querySelectorAll('[data-node-row]')).map((r) =>
        r.getAttribute('data-node-row'),
      );
    expect(names()).toEqual(['2', '3', '1']);
    await user.click(screen.getByRole('button', { name: t.saveOrder }));
    await waitFor(() =>
      expect(api.callsTo('PUT', '/api/admin/nodes/display-order')).toHaveLength(1),
    );
    expect(api.callsTo('PUT', '/api/admin/nodes/display-order')[0]?.body).toEqual({
      ids: [2, 3, 1],
    });
    expect(await screen.findByText(t.orderSaved)).toBeInTheDocument();
  });
});

function s_close() {
  return en.app.close;
}

describe('Admin: groups', () => {
  it('creates, renames and refuses to delete the default group', async () => {
    let groups = adminGroups();
    const api = mockApi({
      ...frontRoutes(),
      'GET /api/admin/groups/': () => ({ body: groups }),
      'POST /api/admin/groups/': (c) => {
        const b = c.body as { name: string; remark: string };
        groups = [...groups, { id: 3, name: b.name, remark: b.remark, server_count: 0 }];
        return { status: 204 };
      },
      'PATCH /api/admin/groups/2': { status: 204 },
      'DELETE /api/admin/groups/2': { status: 204 },
    });
    const user = userEvent.setup();
    await renderApp('/admin/groups', { admin: true });
    await screen.findByText('edge POPs');
    await user.click(screen.getByRole('button', { name: en.admin.groups.add }));
    const dialog = await screen.findByRole('dialog', { name: en.admin.groups.newTitle });
    await user.type(within(dialog).getByLabelText(en.admin.groups.name), '  asia ');
    await user.type(within(dialog).getByLabelText(en.admin.groups.remark), 'tokyo');
    await user.click(within(dialog).getByRole('button', { name: en.app.save }));
    expect(await screen.findByText('asia')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/admin/groups/')[0]?.body).toEqual({
      name: 'asia',
      remark: 'tokyo',
    });

    const rows = document.querySelectorAll('[data-group-row]');
    const defaultRow = rows[0] as HTMLElement;
    expect(within(defaultRow).getByRole('button', { name: en.app.delete })).toBeDisabled();

    await user.click(within(rows[1] as HTMLElement).getByRole('button', { name: en.app.edit }));
    const edit = await screen.findByRole('dialog', { name: en.admin.groups.editTitle('edge') });
    const name = within(edit).getByLabelText(en.admin.groups.name);
    await user.clear(name);
    await user.type(name, 'edge-eu');
    await user.click(within(edit).getByRole('button', { name: en.app.save }));
    await waitFor(() => expect(api.callsTo('PATCH', '/api/admin/groups/2')).toHaveLength(1));
    expect(api.callsTo('PATCH', '/api/admin/groups/2')[0]?.body).toEqual({
      name: 'edge-eu',
      remark: 'edge POPs',
    });
  });
});

describe('Admin: settings', () => {
  it('patches only what changed, including the traffic guest mode', async () => {
    const api = mockApi({
      ...frontRoutes(),
      ...dashUpdateIdle,
      'GET /api/admin/system/settings/': { body: systemSettings() },
      'GET /api/statistics/traffic/settings': { body: trafficSettings() },
      'PATCH /api/admin/system/settings/': { status: 204 },
      'PATCH /api/statistics/traffic/settings': { status: 204 },
    });
    const user = userEvent.setup();
    await renderApp('/admin/settings', { admin: true });
    const title = await screen.findByLabelText(en.admin.settings.pageTitle);
    await user.clear(title);
    await user.type(title, 'Ops Board');
    await user.click(screen.getByLabelText(en.admin.settings.uptimeGuest));
    await user.selectOptions(screen.getByLabelText(en.admin.settings.historyGuest), 'by_node');
    await user.selectOptions(screen.getByLabelText(en.admin.settings.trafficGuest), 'by_node');
    const warning = screen.getByLabelText(en.admin.settings.warningSla);
    await user.clear(warning);
    await user.type(warning, '99.9');
    await user.click(screen.getByRole('button', { name: en.app.save }));
    expect(await screen.findByText(en.app.saved)).toBeInTheDocument();
    expect(api.callsTo('PATCH', '/api/admin/system/settings/')[0]?.body).toEqual({
      page_title: 'Ops Board',
      uptime_guest_visible: false,
      history_guest_access_mode: 'by_node',
      uptime_warning_sla: 99.9,
    });
    expect(api.callsTo('PATCH', '/api/statistics/traffic/settings')[0]?.body).toEqual({
      guest_access_mode: 'by_node',
    });
  });

  it('still edits system settings when traffic settings cannot be read', async () => {
    const api = mockApi({
      ...frontRoutes(),
      ...dashUpdateIdle,
      'GET /api/admin/system/settings/': { body: systemSettings() },
      'GET /api/statistics/traffic/settings': {
        status: 503,
        body: { code: 'db_error', message: 'x' },
      },
      'PATCH /api/admin/system/settings/': { status: 204 },
    });
    const user = userEvent.setup();
    await renderApp('/admin/settings', { admin: true });
    const title = await screen.findByLabelText(en.admin.settings.pageTitle);
    expect(screen.getByRole('alert')).toHaveTextContent(en.errors.byCode.db_error!);
    expect(screen.queryByLabelText(en.admin.settings.trafficGuest)).not.toBeInTheDocument();
    await user.clear(title);
    await user.type(title, 'Solo');
    await user.click(screen.getByRole('button', { name: en.app.save }));
    expect(await screen.findByText(en.app.saved)).toBeInTheDocument();
    expect(api.callsTo('PATCH', '/api/admin/system/settings/')[0]?.body).toEqual({
      page_title: 'Solo',
    });
    expect(api.callsTo('PATCH', '/api/statistics/traffic/settings')).toHaveLength(0);
  });

  it('blocks thresholds out of order before asking the server', async () => {
    const api = mockApi({
      ...frontRoutes(),
      ...dashUpdateIdle,
      'GET /api/admin/system/settings/': { body: systemSettings() },
      'GET /api/statistics/traffic/settings': { body: trafficSettings() },
    });
    const user = userEvent.setup();
    await renderApp('/admin/settings', { admin: true });
    const error = await screen.findByLabelText(en.admin.settings.errorSla);
    await user.clear(error);
    await user.type(error, '99.5');
    expect(screen.getByText(en.admin.settings.slaOrder)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: en.app.save })).toBeDisabled();
    expect(api.callsTo('PATCH', '/api/admin/system/settings/')).toHaveLength(0);
  });

  it('shows the server refusal by its code', async () => {
    mockApi({
      ...frontRoutes(),
      ...dashUpdateIdle,
      'GET /api/admin/system/settings/': { body: systemSettings() },
      'GET /api/statistics/traffic/settings': { body: trafficSettings() },
      'PATCH /api/admin/system/settings/': {
        status: 400,
        body: { code: 'invalid_fields', message: 'bad logo' },
      },
    });
    const user = userEvent.setup();
    await renderApp('/admin/settings', { admin: true });
    const logo = await screen.findByLabelText(en.admin.settings.logoUrl);
    await user.clear(logo);
    await user.type(logo, 'http://insecure.example/logo.png');
    await user.click(screen.getByRole('button', { name: en.app.save }));
    expect(await screen.findByRole('alert')).toHaveTextContent(en.errors.byCode.invalid_fields!);
  });
});
