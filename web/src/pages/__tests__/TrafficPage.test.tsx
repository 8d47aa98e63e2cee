import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type {
  TrafficAdjustment,
  TrafficForecast,
  TrafficStats,
  TrafficSummary,
} from '../../api/traffic';
import { en } from '../../i18n/en';
import { mockApi, type Call } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { frontRoutes } from '../../test/routes';
import { formatDate } from '../../lib/format';

const GB = 1e9;

function stats(over: Partial<TrafficStats> = {}): TrafficStats {
  return {
    in_bytes: 40 * GB,
    out_bytes: 100 * GB,
    p95_enabled: true,
    p95_status: 'available',
    in_p95_bytes_per_sec: 1000,
    out_p95_bytes_per_sec: 3000,
    selected_p95_bytes_per_sec: 3000,
    selected_p95_direction: 'out',
    in_peak_bytes_per_sec: 2000,
    out_peak_bytes_per_sec: 5000,
    selected_peak_bytes_per_sec: 5000,
    selected_bytes: 100 * GB,
    selected_bytes_direction: 'out',
    selected_peak_direction: 'out',
    sample_count: 100,
    expected_sample_count: 100,
    effective_start: '2026-11-01T00:00:00Z',
    effective_end: '2026-11-11T00:00:00Z',
    coverage_ratio: 1,
    covered_until: '2026-11-11T00:00:00Z',
    gap_count: 0,
    reset_count: 0,
    cycle_complete: false,
    data_complete: true,
    status: 'provisional',
    ...over,
  };
}

const forecast: TrafficForecast = {
  status: 'available',
  model: 'daily_mean',
  interval_level: 0.9,
  days_observed: 10,
  min_days: 3,
  days_remaining: 20,
  projected_direction: 'out',
  daily_mean_bytes: 10 * GB,
  daily_stddev_bytes: GB,
  projected_selected_bytes: 300 * GB,
  projected_selected_bytes_low: 280 * GB,
  projected_selected_bytes_high: 320 * GB,
  projected_p95_bytes_per_sec: 3000,
  projected_p95_bytes_per_sec_low: 2900,
  projected_p95_bytes_per_sec_high: 3100,
  observed_ratio: 1 / 3,
  adjusted_projected_selected_bytes: 330 * GB,
  adjusted_projected_selected_bytes_low: 308 * GB,
  adjusted_projected_selected_bytes_high: 352 * GB,
};

const calibration = (basis: 'bill' | 'estimate') => ({
  adjustment_id: 7,
  basis,
  source_cycle_start: '2026-10-01T00:00:00Z',
  source_cycle_end: '2026-11-01T00:00:00Z',
  direction: 'out' as const,
  billed_bytes: 110 * GB,
  ratio: 1.1,
});

function summary(start: string, end: string, st: TrafficStats, f?: TrafficForecast) {
  const s: TrafficSummary = {
    server_id: 1,
    server_name: 'alpha',
    iface: 'eth0',
    usage_mode: 'billing',
    direction_mode: 'out',
    cycle: { mode: 'calendar_month', billing_start_day: 1, timezone: 'UTC', start, end },
    stats: st,
  };
  if (f) s.forecast = f;
  return s;
}

const current = summary(
  '2026-11-01T00:00:00Z',
  '2026-12-01T00:00:00Z',
  stats({
    adjusted_in_bytes: 44 * GB,
    adjusted_out_bytes: 110 * GB,
    adjusted_selected_bytes: 110 * GB,
    calibration: calibration('estimate'),
  }),
  forecast,
);
const october = summary(
  '2026-10-01T00:00:00Z',
  '2026-11-01T00:00:00Z',
  stats({
    cycle_complete: true,
    status: 'sealed',
    adjusted_selected_bytes: 110 * GB,
    calibration: calibration('bill'),
  }),
);
const record: TrafficAdjustment = {
  id: 7,
  server_id: 1,
  iface: 'eth0',
  cycle_start: '2026-10-01T00:00:00Z',
  cycle_end: '2026-11-01T00:00:00Z',
  direction: 'out',
  billed_bytes: 110 * GB,
  raw_bytes: 100 * GB,
  note: 'invoice 42',
  created_at: '2026-11-05T10:00:00Z',
  status: 'active',
  revoked_at: null,
  superseded_by: null,
  matches_cycle: true,
};

function routes(cur: TrafficSummary = current) {
  return {
    ...frontRoutes(),
    'GET /api/statistics/traffic/ifaces': { body: [{ name: 'eth0' }] },
    'GET /api/statistics/traffic/summary': { body: cur },
    'GET /api/statistics/traffic/monthly': {
      body: { includes_current: true, items: [cur, october] },
    },
    'GET /api/statistics/traffic/daily': { body: { items: [] } },
    'GET /api/admin/nodes/1/traffic/adjustments': { body: { items: [record] } },
  };
}

afterEach(() => {
  document.cookie = 'csrf=; max-age=0; path=/';
});

describe('Traffic page', () => {
  it('shows the forecast with its range and the estimated bill beside Dash’s figure', async () => {
    mockApi(routes());
    await renderApp('/nodes/1/traffic', { admin: true });
    const cur = await screen.findByRole('region', { name: en.traffic.current });
    const adjusted = within(cur).getByTestId('traffic-adjusted');
    expect(adjusted).toHaveTextContent(en.traffic.adjusted.estimate!);
    expect(adjusted).toHaveTextContent('102 GiB');
    expect(adjusted).toHaveTextContent('1.100');
    const f = within(cur).getByTestId('traffic-forecast');
    expect(f).toHaveTextContent(en.traffic.forecast);
    expect(f).toHaveTextContent('279 GiB');
    expect(f).toHaveTextContent('90% range 261 GiB – 298 GiB');
    expect(f).toHaveTextContent(en.traffic.forecastP95);
    expect(f).toHaveTextContent(en.traffic.estimatedBillAtEnd);
    expect(f).toHaveTextContent(en.traffic.forecastModel.daily_mean!);
    const monthly = screen.getByRole('region', { name: en.traffic.monthly });
    expect(within(monthly).getAllByText(/\((bill|estimate)\)/)).toHaveLength(2);
  });

  it('says there is too little data instead of a projection', async () => {
    const early = summary(current.cycle.start, current.cycle.end, stats(), {
      ...forecast,
      status: 'insufficient_data',
      reason: 'too_few_days',
      model: null,
      days_observed: 1,
      projected_selected_bytes: null,
      projected_selected_bytes_low: null,
      projected_selected_bytes_high: null,
    });
    mockApi(routes(early));
    await renderApp('/nodes/1/traffic');
    expect(await screen.findByTestId('traffic-forecast')).toHaveTextContent(
      en.traffic.forecastTooFew(1, 3),
    );
    // Billing with figures: nothing to explain.
    expect(screen.queryByTestId('traffic-first-interval')).toBeNull();
    // Guests never see the calibration panel.
    expect(screen.queryByRole('region', { name: en.traffic.calibration.title })).toBeNull();
  });

  it('says why a new interface reads 0 B in Billing mode until its first interval closes', async () => {
    const fresh = stats({
      in_bytes: 0,
      out_bytes: 0,
      selected_bytes: 0,
      sample_count: 0,
      expected_sample_count: 0,
      coverage_ratio: 1,
    });
    mockApi(routes(summary(current.cycle.start, current.cycle.end, fresh)));
    await renderApp('/nodes/1/traffic');
    expect(await screen.findByTestId('traffic-first-interval')).toHaveTextContent(
      en.traffic.firstInterval,
    );
  });

  it('does not show the first-interval note in Lite mode', async () => {
    const lite = {
      ...summary(
        current.cycle.start,
        current.cycle.end,
        stats({ selected_bytes: 0, expected_sample_count: 0 }),
      ),
      usage_mode: 'lite' as const,
    };
    mockApi(routes(lite));
    await renderApp('/nodes/1/traffic');
    await screen.findByTestId('traffic-quality');
    expect(screen.queryByTestId('traffic-first-interval')).toBeNull();
  });

  it('lets an admin record a bill for a closed cycle and revoke one', async () => {
    const posted: Call[] = [];
    const api = mockApi({
      ...routes(),
      'POST /api/admin/nodes/1/traffic/adjustments': (c) => {
        posted.push(c);
        return { status: 201, body: { ...record, id: 8 } };
      },
      'POST /api/admin/nodes/1/traffic/adjustments/7/revoke': {
        body: { ...record, status: 'revoked', revoked_at: '2026-11-11T00:00:00Z' },
      },
    });
    await renderApp('/nodes/1/traffic', { admin: true });
    const panel = await screen.findByRole('region', { name: en.traffic.calibration.title });
    const row = (await within(panel).findByText('invoice 42')).closest('tr')!;
    expect(row).toHaveTextContent('110 GB');
    expect(row).toHaveTextContent('+10.0%');
    const user = userEvent.setup();
    // Only closed cycles are offered.
    const cycle = within(panel).getByLabelText(en.traffic.calibration.cycle);
    expect(within(cycle).getAllByRole('option')).toHaveLength(1);
    await user.click(within(panel).getByRole('button', { name: en.traffic.calibration.record }));
    expect(within(panel).getByText(en.traffic.calibration.badAmount)).toBeInTheDocument();
    expect(posted).toHaveLength(0);
    await user.type(within(panel).getByLabelText(en.traffic.calibration.amount), '1.5');
    await user.selectOptions(within(panel).getByLabelText(en.traffic.calibration.unit), 'TB');
    await user.type(within(panel).getByLabelText(en.traffic.calibration.note), 'invoice 43');
    const before = api.callsTo('GET', '/api/statistics/traffic/summary').length;
    await user.click(within(panel).getByRole('button', { name: en.traffic.calibration.record }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]!.body).toEqual({
      iface: 'eth0',
      cycle_start: '2026-10-01T00:00:00Z',
      direction: 'out',
      billed_bytes: 1.5e12,
      note: 'invoice 43',
    });
    expect(await within(panel).findByText(en.traffic.calibration.recorded)).toBeInTheDocument();
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/statistics/traffic/summary').length).toBeGreaterThan(before),
    );
    await user.click(
      within(panel).getByRole('button', { name: `Revoke ${formatDate('2026-10-01T00:00:00Z')}` }),
    );
    await user.click(within(panel).getByRole('button', { name: en.traffic.calibration.revoke }));
    await waitFor(() =>
      expect(api.callsTo('POST', '/api/admin/nodes/1/traffic/adjustments/7/revoke')).toHaveLength(
        1,
      ),
    );
    expect(await within(panel).findByText(en.traffic.calibration.revoked)).toBeInTheDocument();
  }, 20_000);

  it('shows daily and monthly figures as loading until they arrive, not as empty', async () => {
    const never = () => new Promise<never>(() => {});
    mockApi({
      ...routes(),
      'GET /api/statistics/traffic/daily': never,
      'GET /api/statistics/traffic/monthly': never,
    });
    await renderApp('/nodes/1/traffic', { admin: true });
    const daily = await screen.findByRole('region', { name: en.traffic.daily });
    expect(within(daily).getByRole('status')).toHaveTextContent(en.app.loading);
    expect(within(daily).queryByText(en.traffic.noDaily)).toBeNull();
    const monthly = screen.getByRole('region', { name: en.traffic.monthly });
    expect(within(monthly).queryByText(en.traffic.noMonthly)).toBeNull();
  });
});
