import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ThemeListItem } from '../../api/themes';
import { en } from '../../i18n/en';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { frontRoutes } from '../../test/routes';

const t = en.admin.themes;

function theme(id: string, over: Partial<ThemeListItem> = {}): ThemeListItem {
  return {
    id,
    name: `Theme ${id}`,
    version: '1.0.0',
    author: 'Ann',
    description: `${id} colours`,
    skin: {
      admin: { shell: 'topbar', frame: 'flat' },
      dashboard: { summary: 'cards', density: 'compact' },
    },
    format_version: 1,
    deprecated: true,
    built_in: false,
    active: false,
    deletable: true,
    missing: false,
    broken: false,
    has_preview: true,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    ...over,
  };
}

function themeStore() {
  let active = 'default';
  let items = [
    theme('operator', { built_in: true, deletable: false, has_preview: false, created_at: null }),
    theme('ocean'),
    theme('sunset'),
  ];
  const view = () =>
    items.map((i) => ({
      ...i,
      active: i.id === active,
      deletable: !i.built_in && i.id !== active,
    }));
  return {
    'GET /api/admin/system/themes/': () => ({ body: view() }),
    'POST /api/admin/system/themes/ocean/apply': () => {
      active = 'ocean';
      return { status: 204 };
    },
    'POST /api/admin/system/themes/default/apply': () => {
      active = 'default';
      return { status: 204 };
    },
    'DELETE /api/admin/system/themes/sunset': () => {
      items = items.filter((i) => i.id !== 'sunset');
      return { status: 204 };
    },
    'GET /theme/active.json': () =>
      active === 'default' ? undefined : { body: { ...theme(active), id: active } },
  };
}

describe('Admin: themes', () => {
  it('applies a theme, reloads the theme stylesheet and marks <html> with its id', async () => {
    const api = mockApi({ ...frontRoutes(), ...themeStore() });
    const user = userEvent.setup();
    await renderApp('/admin/themes', { admin: true });
    const ocean = await screen.findByText('Theme ocean');
    const card = ocean.closest('li') as HTMLElement;
    expect(within(card).getByRole('img', { name: t.previewAlt('Theme ocean') })).toHaveAttribute(
      'src',
      expect.stringContaining('/theme/preview/ocean.png') as string,
    );
    await user.click(within(card).getByRole('button', { name: t.apply }));
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('ocean'));
    expect(api.callsTo('POST', '/api/admin/system/themes/ocean/apply')).toHaveLength(1);
    const link = document.getElementById('dash-theme-css') as HTMLLinkElement;
    expect(link.getAttribute('href')).toMatch(/^\/theme\/active\.css\?v=\d+$/);
    expect(await within(card).findByText(t.active)).toBeInTheDocument();
    expect(document.documentElement.dataset.density).toBe('compact');

    await user.click(screen.getByRole('button', { name: t.useDefault }));
    await waitFor(() => expect(document.documentElement.dataset.theme).toBeUndefined());
  });

  it('deletes an inactive theme after confirmation; built-ins offer no delete', async () => {
    const api = mockApi({ ...frontRoutes(), ...themeStore() });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const user = userEvent.setup();
    await renderApp('/admin/themes', { admin: true });
    const operator = (await screen.findByText('Theme operator')).closest('li') as HTMLElement;
    expect(within(operator).queryByRole('button', { name: en.app.delete })).toBeNull();
    expect(within(operator).getByText(t.builtIn)).toBeInTheDocument();
    const sunset = screen.getByText('Theme sunset').closest('li') as HTMLElement;
    await user.click(within(sunset).getByRole('button', { name: en.app.delete }));
    await waitFor(() => expect(screen.queryByText('Theme sunset')).toBeNull());
    expect(api.callsTo('DELETE', '/api/admin/system/themes/sunset')).toHaveLength(1);
  });
});
