import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { systemSettings, trafficSettings } from '../../test/fixtures/nodes';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { frontRoutes } from '../../test/routes';

const t = en.admin.storage;

function storage(budget: Record<string, unknown>, growth: number | null = 2_500_000) {
  return {
    database_bytes: 48 * 1024 ** 2,
    used_bytes: 40 * 1024 ** 2,
    raw_history: {
      bytes: 30 * 1024 ** 2,
      points: 1_200_000,
      bytes_per_report: 26.2,
      open_rows: 900,
      open_bytes: 3 * 1024 ** 2,
      oldest_at: '2026-11-13T00:00:00Z',
    },
    growth_bytes_per_day: growth,
    budget: {
      max_bytes: null,
      state: 'none',
      raw_retention_days: 8,
      raw_kept_from: null,
      days_until_full: null,
      ...budget,
    },
  };
}

function routes(body: unknown) {
  return {
    ...frontRoutes(),
    'GET /api/admin/system/settings/': { body: systemSettings() },
    'GET /api/statistics/traffic/settings': { body: trafficSettings() },
    'GET /api/admin/system/storage': { body },
  };
}

describe('Admin settings: storage panel', () => {
  it('shows database size, bytes per report and growth, with no budget set', async () => {
    mockApi(routes(storage({})));
    await renderApp('/admin/settings', { admin: true });
    expect(await screen.findByTestId('storage-database')).toHaveTextContent('48.0 MiB');
    expect(screen.getByTestId('storage-raw')).toHaveTextContent('26.2 B');
    // Reports not yet sealed into blocks are shown too (before the first seal, all of them).
    expect(screen.getByTestId('storage-open')).toHaveTextContent(t.openValue('3.00 MiB', '900'));
    expect(screen.getByTestId('storage-growth')).toHaveTextContent('2.38 MiB');
    expect(screen.getByTestId('storage-budget')).toHaveTextContent(t.budgetNone);
  });

  it('warns when the budget shortened raw retention', async () => {
    mockApi(
      routes(
        storage({
          max_bytes: 64 * 1024 ** 2,
          state: 'shortened',
          raw_kept_from: '2026-11-18T00:00:00Z',
          days_until_full: 9.6,
        }),
      ),
    );
    await renderApp('/admin/settings', { admin: true });
    expect(await screen.findByTestId('storage-budget')).toHaveTextContent('64.0 MiB');
    expect(screen.getByTestId('storage-budget')).toHaveTextContent(t.daysUntilFull('10'));
    expect(screen.getByText(/would pass its size budget/)).toBeInTheDocument();
  });

  it('warns when even one day of raw history does not fit, and says when growth is unknown', async () => {
    mockApi(
      routes(
        storage(
          { max_bytes: 1024 ** 2, state: 'over', raw_kept_from: '2026-11-20T12:00:00Z' },
          null,
        ),
      ),
    );
    await renderApp('/admin/settings', { admin: true });
    expect(await screen.findByText(/Over the size budget/)).toBeInTheDocument();
    expect(screen.getByTestId('storage-growth')).toHaveTextContent(t.growthUnknown);
  });

  it('shows the budget within limits', async () => {
    mockApi(routes(storage({ max_bytes: 1024 ** 3, state: 'ok', days_until_full: 400 })));
    await renderApp('/admin/settings', { admin: true });
    expect(await screen.findByText(t.ok(8))).toBeInTheDocument();
  });
});
