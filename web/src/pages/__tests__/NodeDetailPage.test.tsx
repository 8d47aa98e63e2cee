import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { en } from '../../i18n/en';
import { mockApi, type Call } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { frontRoutes } from '../../test/routes';
import { plots } from '../../test/fake-uplot';

// uPlot needs a real canvas; the chart's data path is what these tests look at.
vi.mock('uplot', () => import('../../test/fake-uplot'));

function history(c: Call) {
  const metric = c.query.get('metric') ?? '';
  const now = Date.now();
  return {
    body: {
      server_id: Number(c.query.get('server_id')),
      metric,
      range: c.query.get('range'),
      agg: 'avg',
      step_sec: 60,
      points:
        metric === 'proc.count'
          ? []
          : [0, 1, 2].map((i) => ({
              ts: new Date(now - (3 - i) * 60_000).toISOString(),
              value: i + 1,
            })),
    },
  };
}

const metricsOf = (calls: Call[]) => new Set(calls.map((c) => c.query.get('metric')));

describe('Node detail', () => {
  it('shows system facts and the SMART, RAID, thermal and pressure panels', async () => {
    mockApi({ ...frontRoutes(), 'GET /api/metrics/history': history });
    await renderApp('/nodes/1', { admin: true });
    expect(await screen.findByRole('heading', { name: 'alpha' })).toBeInTheDocument();
    expect(screen.getByText('AMD EPYC 7B13')).toBeInTheDocument();
    const smart = screen.getByRole('region', { name: en.detail.smart });
    expect(within(smart).getByText('Samsung SSD 870')).toBeInTheDocument();
    const raid = screen.getByRole('region', { name: en.detail.raid });
    expect(within(raid).getByText('md0')).toBeInTheDocument();
    expect(within(raid).getByText(en.detail.raidDevices(2, 2, 0))).toBeInTheDocument();
    expect(screen.getByRole('region', { name: en.detail.thermal })).toHaveTextContent(
      'Package id 0',
    );
    expect(screen.getByRole('region', { name: en.detail.pressure })).toHaveTextContent('1.50%');
    expect(screen.getByRole('region', { name: en.detail.interfaces })).toHaveTextContent('eth0');
    expect(screen.getByRole('region', { name: en.detail.diskIo })).toHaveTextContent('sda');
  });

  it('asks the history API for every metric of the chosen range', async () => {
    const api = mockApi({ ...frontRoutes(), 'GET /api/metrics/history': history });
    await renderApp('/nodes/1?range=12h', { admin: true });
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/metrics/history').length).toBeGreaterThan(30),
    );
    const calls = api.callsTo('GET', '/api/metrics/history');
    expect(new Set(calls.map((c) => c.query.get('range')))).toEqual(new Set(['12h']));
    expect(new Set(calls.map((c) => c.query.get('server_id')))).toEqual(new Set(['1']));
    const metrics = metricsOf(calls);
    for (const m of [
      'cpu.usage_ratio',
      'cpu.load1',
      'cpu.load5',
      'cpu.load15',
      'cpu.temp_c',
      'mem.used',
      'mem.used_ratio',
      'proc.count',
      'net.recv_bps',
      'net.sent_bps',
      'conn.tcp',
      'conn.udp',
      'disk.read_bps',
      'disk.write_bps',
      'disk.read_iops',
      'disk.write_iops',
      'disk.iops',
      'disk.used',
      'disk.used_ratio',
      'disk.temp_c',
      'pressure.cpu.some_avg10',
      'pressure.cpu.some_avg60',
      'pressure.cpu.some_avg300',
      'pressure.memory.full_avg10',
      'pressure.io.some_avg300',
      'pressure.io.full_avg60',
    ]) {
      expect(metrics, m).toContain(m);
    }
    expect(metrics).not.toContain('pressure.cpu.full_avg10');
    const disk = calls.find((c) => c.query.get('metric') === 'disk.read_bps');
    expect(disk?.query.get('device')).toBe('sda');
    const usage = calls.find((c) => c.query.get('metric') === 'disk.used_ratio');
    expect(usage?.query.get('device')).toBe('/');
    expect(calls.find((c) => c.query.get('metric') === 'disk.temp_c')?.query.has('device')).toBe(
      false,
    );
    expect(await screen.findAllByText(en.detail.noPoints)).toHaveLength(1); // proc.count is empty
    expect(plots.length).toBeGreaterThan(0);
  });

  it('switches range and device on demand', async () => {
    const api = mockApi({ ...frontRoutes(), 'GET /api/metrics/history': history });
    const user = userEvent.setup();
    await renderApp('/nodes/1', { admin: true });
    const picker = await screen.findByRole('radiogroup', { name: en.detail.rangeLabel });
    expect(within(picker).getByRole('radio', { name: en.detail.ranges['1h'] })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await user.click(within(picker).getByRole('radio', { name: en.detail.ranges['30d'] }));
    await waitFor(() =>
      expect(
        api.callsTo('GET', '/api/metrics/history').some((c) => c.query.get('range') === '30d'),
      ).toBe(true),
    );
    await waitFor(() => expect(document.querySelector('[data-range="30d"]')).not.toBeNull());

    await user.selectOptions(
      screen.getByLabelText(en.detail.deviceLabel, { selector: '#mount-device' }),
      '/boot',
    );
    await waitFor(() =>
      expect(
        api
          .callsTo('GET', '/api/metrics/history')
          .some((c) => c.query.get('metric') === 'disk.used' && c.query.get('device') === '/boot'),
      ).toBe(true),
    );
  });

  it('tells a guest that history is not available when guest history is disabled', async () => {
    const api = mockApi({ ...frontRoutes(), 'GET /api/metrics/history': history });
    await renderApp('/nodes/2');
    expect(await screen.findByText(en.detail.historyUnavailable)).toBeInTheDocument();
    expect(api.callsTo('GET', '/api/metrics/history')).toHaveLength(0);
  });

  it('shows history to a guest when guest history is by node', async () => {
    const api = mockApi({
      ...frontRoutes(),
      'GET /api/statistics/access': {
        body: { history_guest_access_mode: 'by_node', traffic_guest_access_mode: 'disabled' },
      },
      'GET /api/metrics/history': history,
    });
    await renderApp('/nodes/2');
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/metrics/history').length).toBeGreaterThan(0),
    );
    expect(api.calls.every((c) => c.headers.authorization === undefined)).toBe(true);
  });

  it('shows a history error by its code in the chart', async () => {
    mockApi({
      ...frontRoutes(),
      'GET /api/metrics/history': { status: 403, body: { code: 'forbidden', message: 'no' } },
    });
    await renderApp('/nodes/1', { admin: true });
    expect((await screen.findAllByText(en.errors.byCode.forbidden!)).length).toBeGreaterThan(0);
  });

  it('tells a guest whose node became hidden (history 404) that it is not visible, without retry', async () => {
    mockApi({
      ...frontRoutes(),
      'GET /api/statistics/access': {
        body: { history_guest_access_mode: 'by_node', traffic_guest_access_mode: 'disabled' },
      },
      'GET /api/metrics/history': {
        status: 404,
        body: { code: 'not_found', message: 'not found' },
      },
    });
    await renderApp('/nodes/2');
    const cpu = await screen.findByRole('region', { name: en.detail.charts.cpu });
    expect(await within(cpu).findByText(en.detail.notFound)).toBeInTheDocument();
    expect(within(cpu).queryByRole('button', { name: en.app.retry })).toBeNull();
  });

  it('says when a node does not exist or is hidden', async () => {
    mockApi(frontRoutes());
    await renderApp('/nodes/999');
    expect(await screen.findByText(en.detail.notFound)).toBeInTheDocument();
  });
});
