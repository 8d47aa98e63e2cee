import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { en } from '../../i18n/en';
import { measureAxisText } from '../../components/Chart';
import { mockApi, type Call } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { frontRoutes } from '../../test/routes';
import { nodeView } from '../../test/fixtures/nodes';
import { plotTitled, plotsWith } from '../../test/fake-uplot';

vi.mock('uplot', () => import('../../test/fake-uplot'));

const MiB = 1024 ** 2;

/** Three points a minute apart ending a minute ago; the network charts above 10 MiB/s. */
function history(c: Call) {
  const metric = c.query.get('metric') ?? '';
  const now = Date.now();
  const big = metric.startsWith('net.') ? 15.2 * MiB : 1;
  return {
    body: {
      server_id: Number(c.query.get('server_id')),
      metric,
      range: c.query.get('range'),
      agg: c.query.get('agg') ?? 'avg',
      step_sec: 60,
      points: [0, 1, 2].map((i) => ({
        ts: new Date(now - (3 - i) * 60_000).toISOString(),
        value: (i + 1) * big * (c.query.get('agg') === 'max' ? 1.5 : 1),
      })),
    },
  };
}

const x = en.detail.series;

async function network(...labels: string[]) {
  const want = labels.length ? labels : [x.recv, x.sent];
  await waitFor(() => expect(plotsWith(...want).length).toBe(1));
  return plotsWith(...want)[0]!;
}

const networkBoth = [x.recv, en.charts.maxOf(x.recv), x.sent, en.charts.maxOf(x.sent)];

describe('Node charts', () => {
  it('spans the whole chosen range, so the time after the last report shows as empty', async () => {
    mockApi({ ...frontRoutes(), 'GET /api/metrics/history': history });
    await renderApp('/nodes/1?range=12h', { admin: true });
    const plot = await network();
    const nowSec = Date.now() / 1000;
    expect(plot.x).not.toBeNull();
    expect(plot.x!.max - plot.x!.min).toBe(12 * 3600);
    expect(Math.abs(plot.x!.max - nowSec)).toBeLessThan(10);
    // The last point is a minute old: the x axis goes past it.
    const xs = plot.data[0] as number[];
    expect(plot.x!.max).toBeGreaterThan(xs.at(-1)!);
    expect(plot.opts.cursor.sync?.key).toBe('node-1');
  });

  it('labels the y axis in round binary steps and sizes it to the widest label', async () => {
    mockApi({ ...frontRoutes(), 'GET /api/metrics/history': history });
    await renderApp('/nodes/1?range=1w', { admin: true });
    const plot = await network(...networkBoth);
    const [lo, hi] = plot.opts.scales.y.range(null, 0, 22.8 * MiB) as [number, number];
    expect(lo).toBe(0);
    const ticks = plot.opts.axes[1]!.splits!(null, 1, lo, hi) as number[];
    const labels = plot.opts.axes[1]!.values!(null, ticks) as string[];
    expect(labels).toEqual(['0 MiB/s', '8 MiB/s', '16 MiB/s', '24 MiB/s']);
    const width = plot.opts.axes[1]!.size!(null, labels, 1, 0) as number;
    expect(width).toBeGreaterThan(Math.max(...labels.map(measureAxisText)));
  });

  it('shows maximum beside average on long ranges, and either one on request', async () => {
    const api = mockApi({ ...frontRoutes(), 'GET /api/metrics/history': history });
    const user = userEvent.setup();
    // From a range with averages only: the new layout must not meet the old data.
    await renderApp('/nodes/1?range=24h', { admin: true });
    await network();
    const ranges = screen.getByRole('radiogroup', { name: en.detail.rangeLabel });
    await user.click(within(ranges).getByRole('radio', { name: en.detail.ranges['1w'] }));
    await waitFor(() =>
      expect(
        plotsWith(x.recv, en.charts.maxOf(x.recv), x.sent, en.charts.maxOf(x.sent)),
      ).toHaveLength(1),
    );
    const both = plotsWith(x.recv, en.charts.maxOf(x.recv), x.sent, en.charts.maxOf(x.sent))[0]!;
    expect(both.opts.series[2]!.dash).toBeDefined();
    expect(both.opts.series[1]!.dash).toBeUndefined();
    const maxCalls = api
      .callsTo('GET', '/api/metrics/history')
      .filter((c) => c.query.get('agg') === 'max');
    expect(maxCalls.some((c) => c.query.get('metric') === 'net.recv_bps')).toBe(true);

    const picker = screen.getByRole('radiogroup', { name: en.charts.aggLabel });
    await user.click(within(picker).getByRole('radio', { name: en.charts.aggs.max }));
    await waitFor(() => expect(document.querySelector('[data-agg="max"]')).not.toBeNull());
    expect(document.querySelector('[data-agg="avg,max"]')).toBeNull();
  });

  it('charts CPU iowait and steal', async () => {
    const api = mockApi({ ...frontRoutes(), 'GET /api/metrics/history': history });
    await renderApp('/nodes/1', { admin: true });
    expect(await screen.findByRole('region', { name: en.charts.cpuTime })).toBeInTheDocument();
    const metrics = new Set(
      api.callsTo('GET', '/api/metrics/history').map((c) => c.query.get('metric')),
    );
    expect(metrics).toContain('cpu.iowait_ratio');
    expect(metrics).toContain('cpu.steal_ratio');
  });

  it('zooms every chart together and resets from the visible button', async () => {
    mockApi({ ...frontRoutes(), 'GET /api/metrics/history': history });
    const user = userEvent.setup();
    await renderApp('/nodes/1?range=24h', { admin: true });
    const plot = await network();
    const reset = screen.getByRole('button', { name: en.charts.resetZoom });
    expect(reset).toBeDisabled();
    const full = { ...plot.x! };
    const from = full.min + 3600;
    act(() => {
      plot.opts.hooks.setSelect[0]!({
        select: { left: 10, width: 100 },
        posToVal: (px: number) => from + (px - 10) * 60,
        setSelect: () => {},
      });
    });
    await waitFor(() => expect(plot.x).toEqual({ min: from, max: from + 6000 }));
    const cpu = plotTitled(en.detail.charts.cpu)!;
    expect(cpu.x).toEqual({ min: from, max: from + 6000 });
    await user.click(reset);
    await waitFor(() => expect(plot.x!.max - plot.x!.min).toBe(24 * 3600));
  });

  it('appends each new report to the open 30 min charts without fetching the series again', async () => {
    let polls = 0;
    const routes = frontRoutes();
    const api = mockApi({
      ...routes,
      'GET /api/front/metrics': () => {
        polls++;
        const at = new Date(Date.now() + polls * 1000).toISOString();
        return { body: [nodeView(1, 'alpha', at), nodeView(2, 'beta', at)] };
      },
      'GET /api/metrics/history': history,
    });
    await renderApp('/nodes/1?range=30m', { admin: true });
    await waitFor(() => expect(plotTitled(en.detail.charts.cpu)).toBeDefined());
    const cpu = plotTitled(en.detail.charts.cpu)!;
    const fetched = api.callsTo('GET', '/api/metrics/history').length;
    const before = (cpu.data[0] as number[]).length;
    await waitFor(() => expect((cpu.data[0] as number[]).length).toBeGreaterThan(before), {
      timeout: 8000,
    });
    const last = (cpu.data[1] as number[]).at(-1);
    expect(last).toBe(nodeView(1, 'alpha', '').cpu.usage_ratio);
    expect(api.callsTo('GET', '/api/metrics/history')).toHaveLength(fetched);
    expect(screen.queryByRole('radiogroup', { name: en.charts.aggLabel })).toBeNull();

    // Zoomed in on the newest minute, later reports still keep the older points.
    const first = (cpu.data[0] as number[])[0]!;
    const grown = (cpu.data[0] as number[]).length;
    const to = cpu.x!.max;
    act(() => {
      cpu.opts.hooks.setSelect[0]!({
        select: { left: 0, width: 60 },
        posToVal: (px: number) => to - 60 + px,
        setSelect: () => {},
      });
    });
    await waitFor(() => expect((cpu.data[0] as number[]).length).toBeGreaterThan(grown), {
      timeout: 8000,
    });
    expect((cpu.data[0] as number[])[0]).toBe(first);
    expect(cpu.x!.max - cpu.x!.min).toBe(60);
  }, 25_000);

  it('shows availability for 24 hours, 30 and 45 days and the day strip', async () => {
    const api = mockApi({
      ...frontRoutes(),
      'GET /api/metrics/history': history,
      'GET /api/metrics/uptime/day': (c) => ({
        body: {
          date: c.query.get('date'),
          hours: Array.from({ length: 24 }, () => 99),
          observed_ms: Array.from({ length: 24 }, () => 3_600_000),
        },
      }),
    });
    const user = userEvent.setup();
    await renderApp('/nodes/1', { admin: true });
    const box = await screen.findByRole('region', { name: en.charts.uptime });
    // Days 42-44 of the fixture: no data, 90 %, 97.5 %; every other day 100 %.
    expect(within(box).getByText('99.57%')).toBeInTheDocument();
    expect(within(box).getByText('99.72%')).toBeInTheDocument();
    expect(await within(box).findByText('99.00%')).toBeInTheDocument();
    const days = api.callsTo('GET', '/api/metrics/uptime/day').map((c) => c.query.get('date'));
    expect(days).toHaveLength(2);
    const strip = within(box).getByRole('group', { name: en.node.uptimeStrip });
    const bars = within(strip).getAllByRole('button');
    expect(bars).toHaveLength(45);
    await user.click(bars[44]!);
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
  });
});
