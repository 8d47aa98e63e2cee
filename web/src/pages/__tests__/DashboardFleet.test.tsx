import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { adminNode, nodeView } from '../../test/fixtures/nodes';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { brand, frontRoutes } from '../../test/routes';

const f = en.fleet;
const cards = () => screen.queryAllByRole('article');
const names = () => cards().map((c) => c.getAttribute('aria-label'));
const linuxPrefix = 'curl -fsSL http://dash.test/deploy/linux/install.sh | sudo bash -s -- x ';
const deploy = {
  scripts: {
    linux: { url: 'u', command_prefix: linuxPrefix },
    macos: { url: 'u', command_prefix: 'mac ' },
    windows: { url: 'u', command_prefix: 'win ' },
  },
};

beforeEach(() => localStorage.clear());

describe('Dashboard: offline and status', () => {
  it('shows how long ago an offline node reported instead of its stale rates', async () => {
    mockApi(frontRoutes());
    await renderApp('/');
    const gamma = await screen.findByRole('article', { name: 'gamma' });
    expect(within(gamma).getByText(f.lastSeen('1m'))).toBeInTheDocument();
    expect(within(gamma).queryByRole('meter')).not.toBeInTheDocument();
    expect(within(gamma).queryByText(en.node.load)).not.toBeInTheDocument();
    const alpha = screen.getByRole('article', { name: 'alpha' });
    expect(within(alpha).getAllByRole('meter').length).toBeGreaterThan(0);
  });

  it('has an overview whose counts filter by status, and an offline-first order', async () => {
    mockApi(frontRoutes());
    const user = userEvent.setup();
    await renderApp('/');
    const overview = await screen.findByRole('region', { name: f.overview });
    await waitFor(() => expect(cards()).toHaveLength(3));
    const offlineBtn = within(overview).getByRole('button', { name: /Offline/ });
    expect(offlineBtn).toHaveTextContent('1');
    expect(within(overview).getByRole('button', { name: /Online/ })).toHaveTextContent('2');
    expect(within(overview).getByRole('button', { name: /Total/ })).toHaveTextContent('3');
    // Fixture: 5 GiB in and 2 GiB out each; live rates only from the two online nodes.
    expect(within(overview).getByText('15.0 GiB / 6.00 GiB')).toBeInTheDocument();
    expect(within(overview).getByText('244 KiB/s / 125 KiB/s')).toBeInTheDocument();
    // Guests cannot read alerts: no alerting count.
    expect(within(overview).queryByRole('button', { name: /Alerting/ })).not.toBeInTheDocument();

    await user.click(offlineBtn);
    await waitFor(() => expect(names()).toEqual(['gamma']));
    expect(offlineBtn).toHaveAttribute('aria-pressed', 'true');
    await user.click(offlineBtn);
    await waitFor(() => expect(cards()).toHaveLength(3));

    await user.selectOptions(screen.getByLabelText(f.statusLabel), 'online');
    await waitFor(() => expect(names()).toEqual(['alpha', 'beta']));
    await user.selectOptions(screen.getByLabelText(f.statusLabel), 'all');
    await user.selectOptions(screen.getByLabelText(en.dashboard.sortLabel), 'offline');
    await waitFor(() => expect(names()).toEqual(['gamma', 'alpha', 'beta']));
  });

  it('lets admins filter to nodes with open alerts', async () => {
    mockApi({
      ...frontRoutes(),
      'GET /api/admin/nodes/': {
        body: [adminNode(1, 'alpha'), adminNode(2, 'beta'), adminNode(3, 'gamma')],
      },
      'GET /api/admin/alerts/events/summary': {
        body: { items: [{ server_id: 2, open_count: 1, metrics: ['cpu.usage_ratio'] }] },
      },
    });
    const user = userEvent.setup();
    await renderApp('/', { admin: true });
    const overview = await screen.findByRole('region', { name: f.overview });
    const alerting = await within(overview).findByRole('button', { name: /Alerting/ });
    await waitFor(() => expect(alerting).toHaveTextContent('1'));
    await user.click(alerting);
    await waitFor(() => expect(names()).toEqual(['beta']));
  });
});

describe('Dashboard: table view', () => {
  it(
    'shows a row per node with the chosen columns, remembered across visits',
    { timeout: 20_000 },
    async () => {
      mockApi(frontRoutes());
      const user = userEvent.setup();
      const first = await renderApp('/');
      await waitFor(() => expect(cards()).toHaveLength(3));
      await user.click(screen.getByRole('radio', { name: f.viewTable }));
      const table = await screen.findByRole('table', { name: f.tableCaption });
      expect(within(table).getAllByRole('row')).toHaveLength(4);
      expect(cards()).toHaveLength(0);
      const gamma = table.querySelector('tr[data-node-id="3"]') as HTMLElement;
      expect(within(gamma).getByText(f.lastSeen('1m'))).toBeInTheDocument();
      expect(within(table).getByRole('columnheader', { name: f.col.cpu })).toBeInTheDocument();

      await user.click(screen.getByText(f.columns, { selector: 'summary' }));
      await user.click(screen.getByRole('checkbox', { name: f.col.cpu }));
      await user.click(screen.getByRole('checkbox', { name: f.col.load }));
      expect(screen.getByRole('checkbox', { name: f.col.name })).toBeDisabled();
      expect(
        within(table).queryByRole('columnheader', { name: f.col.cpu }),
      ).not.toBeInTheDocument();
      expect(within(table).getByRole('columnheader', { name: f.col.load })).toBeInTheDocument();
      first.unmount();

      await renderApp('/');
      const again = await screen.findByRole('table', { name: f.tableCaption });
      expect(within(again).getByRole('columnheader', { name: f.col.load })).toBeInTheDocument();
      expect(
        within(again).queryByRole('columnheader', { name: f.col.cpu }),
      ).not.toBeInTheDocument();
    },
  );
});

describe('Dashboard: first run', () => {
  it('shows admins the nodes waiting for their first report, with the install command', async () => {
    mockApi({
      ...frontRoutes(),
      'GET /api/admin/nodes/': {
        body: [
          adminNode(1, 'alpha'),
          adminNode(2, 'beta'),
          adminNode(3, 'gamma'),
          adminNode(9, 'new-box'),
        ],
      },
      'GET /api/admin/nodes/deploy': { body: deploy },
    });
    await renderApp('/', { admin: true });
    const waiting = await screen.findByRole('region', { name: f.waitingTitle });
    expect(within(waiting).getByText(f.waitingSection(1))).toBeInTheDocument();
    const card = within(waiting).getByRole('article', { name: 'new-box' });
    expect(await within(card).findByLabelText(en.admin.nodes.install)).toHaveValue(
      `${linuxPrefix}secret-9-abcdefgh`,
    );
  });

  it('says it is waiting for the local agent instead of "no nodes"', async () => {
    mockApi({
      ...frontRoutes(),
      'GET /api/front/brand': { body: { ...brand, local_agent: true } },
      'GET /api/front/metrics': { body: [] },
    });
    await renderApp('/');
    expect(await screen.findByText(f.firstRunLocal)).toBeInTheDocument();
    expect(screen.queryByText(en.dashboard.empty)).not.toBeInTheDocument();
  });

  it('asks every second while empty, so the first node shows within seconds', async () => {
    let calls = 0;
    const node = nodeView(1, 'this-host', new Date().toISOString());
    mockApi({
      ...frontRoutes(),
      'GET /api/front/brand': { body: { ...brand, local_agent: true } },
      'GET /api/front/metrics': () => ({ body: ++calls >= 3 ? [node] : [] }),
    });
    await renderApp('/');
    // The normal poll is every 3 s; the third answer comes after about 2 s.
    await screen.findByRole('article', { name: 'this-host' }, { timeout: 2900 });
  });
});
