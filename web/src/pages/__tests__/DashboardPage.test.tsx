import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { nodeView } from '../../test/fixtures/nodes';
import { mockApi, type Reply } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { brand, frontRoutes, today } from '../../test/routes';

const cards = () => screen.queryAllByRole('article');

describe('Dashboard', () => {
  it('shows a card per node with live metrics and the brand', async () => {
    mockApi(frontRoutes());
    await renderApp('/');
    await waitFor(() => expect(cards()).toHaveLength(3));
    const alpha = screen.getByRole('article', { name: 'alpha' });
    expect(within(alpha).getByText(en.node.online)).toBeInTheDocument();
    expect(within(alpha).getByText('26.0%')).toBeInTheDocument(); // CPU
    expect(within(alpha).getByText('3.00 GiB / 8.00 GiB')).toBeInTheDocument(); // memory
    expect(within(alpha).getByText('40.0 GiB / 100 GiB')).toBeInTheDocument(); // disk
    expect(within(alpha).getByText('122 KiB/s / 62.5 KiB/s')).toBeInTheDocument(); // network
    expect(within(alpha).getByText('5.00 GiB / 2.00 GiB')).toBeInTheDocument(); // totals
    expect(within(alpha).getByText('0.52 0.41 0.30')).toBeInTheDocument(); // load
    expect(within(alpha).getByText('12 days, 3:04')).toBeInTheDocument(); // uptime
    expect(within(alpha).getByText('48 °C')).toBeInTheDocument(); // temperature
    expect(screen.getByText(brand.topbar_text)).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(brand.page_title));
  });

  it('marks a node offline once its report is older than stale_after_sec', async () => {
    mockApi(frontRoutes());
    await renderApp('/');
    const gamma = await screen.findByRole('article', { name: 'gamma' });
    expect(within(gamma).getByText(en.node.offline)).toBeInTheDocument();
    expect(screen.getByText(en.dashboard.summary(3, 3, 2))).toBeInTheDocument();
  });

  it('keeps the server display order', async () => {
    mockApi(frontRoutes());
    await renderApp('/');
    await waitFor(() => expect(cards()).toHaveLength(3));
    expect(cards().map((c) => c.getAttribute('aria-label'))).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('filters by search over names and tags, and by group', async () => {
    mockApi(frontRoutes());
    const user = userEvent.setup();
    await renderApp('/');
    await waitFor(() => expect(cards()).toHaveLength(3));
    await user.type(screen.getByLabelText(en.dashboard.searchLabel), 'edge');
    await waitFor(() => expect(cards().map((c) => c.getAttribute('aria-label'))).toEqual(['beta']));
    await user.clear(screen.getByLabelText(en.dashboard.searchLabel));
    await waitFor(() => expect(cards()).toHaveLength(3));
    await user.selectOptions(screen.getByLabelText(en.dashboard.groupLabel), 'edge');
    await waitFor(() => expect(cards()).toHaveLength(1));
    await user.type(screen.getByLabelText(en.dashboard.searchLabel), 'alpha');
    expect(await screen.findByText(en.dashboard.noMatch)).toBeInTheDocument();
  });

  it('colours the 45-day strip by the SLA thresholds and opens a day', async () => {
    const routes = frontRoutes();
    const api = mockApi({
      ...routes,
      'GET /api/metrics/uptime/day': (c) => ({
        body: {
          date: c.query.get('date'),
          hours: Array.from({ length: 24 }, (_, h) => (h < 12 ? 100 : h === 12 ? 96 : null)),
          observed_ms: Array.from({ length: 24 }, (_, h) => (h <= 12 ? 3_600_000 : 0)),
        },
      }),
    });
    const user = userEvent.setup();
    await renderApp('/');
    const alpha = await screen.findByRole('article', { name: 'alpha' });
    const strip = await within(alpha).findByRole('group', { name: en.node.uptimeStrip });
    const days = within(strip).getAllByRole('button');
    expect(days).toHaveLength(45);
    expect(days[44]).toHaveAttribute('data-level', 'warn'); // 97.5 %
    expect(days[43]).toHaveAttribute('data-level', 'bad'); // 90 %
    expect(days[42]).toHaveAttribute('data-level', 'none'); // no data
    expect(days[0]).toHaveAttribute('data-level', 'ok');

    await user.click(days[44]!);
    const dialog = await screen.findByRole('dialog', {
      name: en.uptime.dayTitle('alpha', today()),
    });
    const call = api.callsTo('GET', '/api/metrics/uptime/day')[0];
    expect(call?.query.get('server_id')).toBe('1');
    expect(call?.query.get('date')).toBe(today());
    const hours = await within(dialog).findAllByRole('listitem');
    expect(hours.slice(0, 24)).toHaveLength(24);
    expect(within(dialog).getByText('96.0%')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('hides the strip when uptime is not enabled for the caller', async () => {
    mockApi({
      ...frontRoutes(),
      'GET /api/metrics/uptime': {
        body: {
          enabled: false,
          timezone: 'UTC',
          generated_at: '',
          warning_sla: 99,
          error_sla: 95,
          nodes: [],
        },
      },
    });
    await renderApp('/');
    await waitFor(() => expect(cards()).toHaveLength(3));
    expect(screen.queryByRole('group', { name: en.node.uptimeStrip })).not.toBeInTheDocument();
  });

  it('explains an API error by its code instead of showing a blank page', async () => {
    mockApi({
      ...frontRoutes(),
      'GET /api/front/metrics': {
        status: 503,
        body: { code: 'service_unavailable', message: 'x' },
      },
    });
    await renderApp('/');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      en.errors.byCode.service_unavailable!,
    );
    expect(screen.getByRole('button', { name: en.app.retry })).toBeInTheDocument();
  });

  it('says it cannot reach Dash when a poll fails, keeping the last cards', async () => {
    let down = false;
    const routes = frontRoutes();
    const up = routes['GET /api/front/metrics'] as Reply;
    mockApi({
      ...routes,
      'GET /api/front/metrics': () => {
        if (down) throw new TypeError('Failed to fetch');
        return up;
      },
    });
    const { resources } = await renderApp('/');
    await waitFor(() => expect(cards()).toHaveLength(3));
    expect(screen.queryByText(en.errors.network)).not.toBeInTheDocument();
    down = true;
    resources.metrics.reload();
    expect(await screen.findByText(en.errors.network)).toBeInTheDocument();
    expect(screen.getByText(en.dashboard.updateFailed, { exact: false })).toBeInTheDocument();
    expect(cards()).toHaveLength(3);
    down = false;
    resources.metrics.reload();
    await waitFor(() => expect(screen.queryByText(en.errors.network)).not.toBeInTheDocument());
  });

  it('mounts only the visible cards of a large fleet', async () => {
    const now = new Date().toISOString();
    const many = Array.from({ length: 1500 }, (_, i) => nodeView(i + 1, `node-${i + 1}`, now));
    mockApi({ ...frontRoutes(), 'GET /api/front/metrics': { body: many } });
    await renderApp('/');
    await screen.findByText(en.dashboard.summary(1500, 1500, 1500));
    await waitFor(() => expect(cards().length).toBeGreaterThan(0));
    expect(cards().length).toBeLessThan(20);
  });
});
