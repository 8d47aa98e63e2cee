import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The UI in Simplified Chinese: the catalog is chosen when the i18n module loads, so each test
 * loads the app afresh after choosing the language. Any English word left on the page that is
 * not data (node names, tags, units, the brand) is a hard-coded string.
 */
const DATA_WORDS = new Set(
  [
    'alpha',
    'beta',
    'gamma',
    'prod',
    'edge',
    'debian',
    'amd64',
    'linux',
    'days',
    'Acme',
    'Ops',
    'Dash',
    'CPU',
    'GiB',
    'MiB',
    'KiB',
    'English',
    'new-box',
    'box',
    'new',
    'curl',
    'fsSL',
    'http',
    'test',
    'deploy',
    'install',
    'sudo',
    'bash',
    'secret',
    'abcdefgh',
    'secret-9-abcdefgh',
    'default',
    'mac',
    'win',
  ].map((w) => w.toLowerCase()),
);

function englishWords(root: HTMLElement): string[] {
  const texts: string[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n.textContent ?? '');
  for (const el of root.querySelectorAll('[aria-label],[title],[placeholder]')) {
    for (const a of ['aria-label', 'title', 'placeholder']) texts.push(el.getAttribute(a) ?? '');
  }
  for (const el of root.querySelectorAll('textarea,input')) {
    texts.push((el as HTMLInputElement).value); // data (commands), checked below by allowlist
  }
  const words = texts.join(' ').match(/[A-Za-z][A-Za-z0-9-]{2,}/g) ?? [];
  return [...new Set(words)].filter((w) => !DATA_WORDS.has(w.toLowerCase()));
}

async function loadZh() {
  vi.resetModules();
  localStorage.setItem('dash.lang', 'zh-CN');
  const i18n = await import('../../i18n');
  const { renderApp } = await import('../../test/render');
  const { mockApi } = await import('../../test/mock-api');
  const { frontRoutes } = await import('../../test/routes');
  const { adminNode } = await import('../../test/fixtures/nodes');
  return { i18n, renderApp, mockApi, frontRoutes, adminNode };
}

beforeEach(() => localStorage.clear());

describe('Chinese UI', () => {
  it('shows the dashboard, cards and overview in Chinese only', async () => {
    const { i18n, renderApp, mockApi, frontRoutes } = await loadZh();
    expect(i18n.lang).toBe('zh-CN');
    mockApi(frontRoutes());
    await renderApp('/');
    const gamma = await screen.findByRole('article', { name: 'gamma' });
    expect(within(gamma).getByText('离线')).toBeInTheDocument();
    expect(within(gamma).getByText('最后上报于 1分钟 前')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: '节点总览' })).toBeInTheDocument();
    expect(englishWords(document.body)).toEqual([]);
  });

  it('shows the admin dashboard table, waiting nodes and the language picker in Chinese', async () => {
    const { renderApp, mockApi, frontRoutes, adminNode } = await loadZh();
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
      'GET /api/admin/nodes/deploy': {
        body: {
          scripts: {
            linux: {
              url: 'u',
              command_prefix: 'curl -fsSL http://dash.test/deploy/install | sudo bash ',
            },
            macos: { url: 'u', command_prefix: 'mac ' },
            windows: { url: 'u', command_prefix: 'win ' },
          },
        },
      },
      'GET /api/admin/alerts/events/summary': { body: { items: [] } },
    });
    const user = userEvent.setup();
    await renderApp('/', { admin: true });
    await screen.findByRole('region', { name: '等待首次上报' });
    await user.click(screen.getByRole('radio', { name: '表格' }));
    await screen.findByRole('table', { name: '节点' });
    await user.click(screen.getByText('列', { selector: 'summary' }));
    const picker = screen.getByRole('combobox', { name: '语言' });
    expect(picker).toHaveValue('zh-CN');
    await waitFor(() => expect(englishWords(document.body)).toEqual([]));
  });

  it('shows the admin nodes page and the new-node form in Chinese', async () => {
    const { renderApp, mockApi, frontRoutes, adminNode } = await loadZh();
    mockApi({
      ...frontRoutes(),
      'GET /api/admin/nodes/': { body: [adminNode(1, 'alpha')] },
      'GET /api/admin/groups/': { body: [] },
    });
    const user = userEvent.setup();
    await renderApp('/admin/nodes', { admin: true });
    await user.click(await screen.findByRole('button', { name: '添加节点' }));
    await screen.findByRole('dialog', { name: '新节点' });
    expect(englishWords(document.body)).toEqual([]);
  });
});

describe('language switch', () => {
  it('saves the choice and reloads', async () => {
    vi.resetModules();
    const i18n = await import('../../i18n');
    expect(i18n.lang).toBe('en'); // jsdom's navigator.languages is en-US
    const reload = vi.fn();
    i18n.setLang('zh-CN', reload);
    expect(localStorage.getItem('dash.lang')).toBe('zh-CN');
    expect(reload).toHaveBeenCalledOnce();
  });
});
