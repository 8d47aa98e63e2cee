import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { systemSettings, trafficSettings } from '../../test/fixtures/nodes';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { frontRoutes } from '../../test/routes';

const t = en.admin.dashUpdate;
const plan = {
  current_version: '1.0.0',
  current_channel: 'release',
  target_channel: 'release',
  latest_version: '1.1.0',
  install_revision: 'a'.repeat(64),
  version_status: 'available',
  bundled_node_version: '0.3.0',
};

function routes(status: () => unknown, extra: Record<string, unknown> = {}) {
  return {
    ...frontRoutes(),
    'GET /api/admin/system/settings/': { body: systemSettings() },
    'GET /api/statistics/traffic/settings': { body: trafficSettings() },
    'GET /api/admin/system/dash-update/status': () => ({ body: status() }),
    'GET /api/admin/system/dash-update/check': { body: plan },
    'GET /api/admin/system/dash-update/release-notes': {
      body: { source_url: 'x', html: '<h2>Dash 1.1.0</h2>\n<ul><li>&lt;b&gt;faster</li></ul>' },
    },
    ...extra,
  };
}

describe('Admin settings: Dash update panel', () => {
  it('shows the version, the notify hint, notes, then runs the plan with progress and result', async () => {
    let current: Record<string, unknown> = {
      status: 'idle',
      available: true,
      current_version: '1.0.0',
      update_available_version: '1.1.0',
    };
    const api = mockApi(
      routes(() => current, {
        'POST /api/admin/system/dash-update/run': () => {
          current = {
            id: 'j1',
            status: 'running',
            phase: 'download',
            target_version: '1.1.0',
            available: true,
            current_version: '1.0.0',
          };
          return { status: 202, body: current };
        },
      }),
    );
    const user = userEvent.setup();
    await renderApp('/admin/settings', { admin: true });
    expect(await screen.findByTestId('dash-update-current')).toHaveTextContent('1.0.0');
    expect(screen.getByText(t.notifyAvailable('1.1.0'))).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: t.check }));
    expect(await screen.findByTestId('dash-update-latest')).toHaveTextContent('1.1.0');
    // Notes arrive escaped from the server and stay text.
    expect(screen.getByTestId('dash-update-notes')).toHaveTextContent('<b>faster');
    await user.click(screen.getByRole('button', { name: t.update('1.1.0') }));
    expect(await screen.findByRole('progressbar')).toHaveAttribute('aria-valuenow', '25');
    expect(api.callsTo('POST', '/api/admin/system/dash-update/run')[0]?.body).toEqual({
      action: 'update',
      channel: 'release',
      lang: 'en',
      target_version: '1.1.0',
      expected_current_version: '1.0.0',
      expected_install_revision: 'a'.repeat(64),
    });
    current = {
      ...current,
      status: 'completed',
      phase: 'done',
      finished_at: '2026-11-21T12:00:00Z',
    };
    await waitFor(
      () => expect(screen.getByTestId('dash-update-last-job')).toHaveTextContent('completed'),
      { timeout: 4000 },
    );
  });

  it('explains why self-update is unavailable and the last failure', async () => {
    mockApi(
      routes(() => ({
        id: 'j0',
        status: 'failed',
        failure_code: 'recovery_required',
        target_version: '1.1.0',
        available: false,
        unavailable_reason: 'an interrupted update needs recovery',
        current_version: '1.0.0',
      })),
    );
    await renderApp('/admin/settings', { admin: true });
    expect(await screen.findByText(/an interrupted update needs recovery$/)).toBeInTheDocument();
    expect(screen.getByTestId('dash-update-last-job')).toHaveTextContent('dash update recover');
    expect(screen.getByRole('button', { name: t.check })).toBeDisabled();
  });
});
