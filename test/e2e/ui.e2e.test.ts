import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, shot, type Browser } from './support/browser.js';
import { startDash, type RunningDash } from './support/dash.js';
import { startFakeDash } from './support/fake-dash.js';
import { SeedClient, seed, startReporting, type SeededNode } from './support/seed.js';
import { metricsReport } from './support/payloads.js';
import { bigFleet, LONG_TASK_PROBE } from './support/big-fleet.js';

/**
 * The web UI in Debian's chromium against a running backend seeded through the API:
 * a real Dash by default, or the in-memory stand-in with E2E_BACKEND=fake.
 */
const useFake = process.env.E2E_BACKEND === 'fake';
const WAIT = { timeout: 30_000 };

let dash: RunningDash;
let browser: Browser;
let page: Page;
let nodes: SeededNode[];
let stopReporting: () => Promise<void> = async () => {};

const card = (name: string): Locator => page.locator(`article[aria-label="${name}"]`);
const dialog = (): Locator => page.getByRole('dialog');

async function noHorizontalOverflow(): Promise<void> {
  // Evaluated in the page, which has the DOM this Node project does not type.
  const overflow = Number(
    await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'),
  );
  expect(overflow).toBeLessThanOrEqual(1);
}

/**
 * Every chart's y labels (as drawn, from data-y-labels) are distinct and fit left of the plot:
 * the plot starts at least the widest label, measured in the page in the axis font, plus tick
 * and gap in. Polled: a chart lays out on the frame after its data arrives.
 */
async function yLabelsFit(): Promise<void> {
  const problems = async (): Promise<string[]> => {
    const charts: { title: string; labels: string[]; plotLeft: number; widest: number }[] =
      await page.evaluate(`(() => {
        const ctx = document.createElement('canvas').getContext('2d');
        ctx.font = '12px system-ui, -apple-system, "Segoe UI", sans-serif';
        return [...document.querySelectorAll('[data-y-labels]')].map((el) => {
          const labels = JSON.parse(el.dataset.yLabels);
          const over = el.querySelector('.u-over');
          return {
            title: el.getAttribute('aria-label'),
            labels,
            plotLeft: over ? over.offsetLeft : 0,
            widest: Math.max(...labels.map((l) => ctx.measureText(l).width)),
          };
        });
      })()`);
    if (charts.length < 7) return [`only ${charts.length} charts drawn`];
    return charts.flatMap((c) => {
      const text = `${c.title}: ${c.labels.join(' | ')}`;
      const out: string[] = [];
      if (new Set(c.labels).size !== c.labels.length) out.push(`${text} repeats a label`);
      if (c.plotLeft < Math.ceil(c.widest) + 10) {
        out.push(`${text} clipped (plot at ${c.plotLeft}px, label ${Math.ceil(c.widest)}px)`);
      }
      return out;
    });
  };
  await expect.poll(problems, WAIT).toEqual([]);
}

beforeAll(async () => {
  dash = useFake ? await startFakeDash() : await startDash();
  nodes = await seed(dash.url, dash.password);
  stopReporting = startReporting(dash.url, nodes);
  browser = await launchBrowser();
  page = browser.page;
  page.setDefaultTimeout(WAIT.timeout);
  page.on('dialog', (d) => void d.accept());
});

afterAll(async () => {
  await stopReporting();
  await browser?.close();
  await dash?.stop();
});

describe(`web UI against ${useFake ? 'the stand-in backend' : 'a real Dash'}`, () => {
  it('shows guests only the guest-visible nodes', async () => {
    await page.goto(`${dash.url}/`);
    await card('web-1').waitFor();
    await card('edge-1').waitFor();
    expect(await card('db-1').count()).toBe(0);
    await expect.poll(() => page.title(), WAIT).toBe('Dash Monitor');
    await shot(page, '01-dashboard-guest');
  });

  it('logs in and shows every node', async () => {
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Admin password').fill(dash.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
    await card('db-1').waitFor();
    await shot(page, '02-dashboard-admin');
  });

  it('sees nodes update from live reports', async () => {
    const before = await card('web-1').innerText();
    await expect
      .poll(() => card('web-1').innerText(), { timeout: 20_000, interval: 500 })
      .not.toBe(before);
  });

  it('keeps the session across a reload (silent refresh with the CSRF token)', async () => {
    await page.reload();
    await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
    await card('db-1').waitFor();
  });

  it('opens an uptime day', async () => {
    const days = card('web-1').getByRole('group', { name: 'Availability, last 45 days' });
    await days.getByRole('button').last().click();
    await dialog().waitFor();
    await expect
      .poll(() => dialog().getByRole('listitem').count(), WAIT)
      .toBeGreaterThanOrEqual(24);
    await shot(page, '03-uptime-day');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
  });

  it("opens a node's history for several ranges", async () => {
    await page.getByRole('link', { name: 'Open web-1' }).click();
    await page.getByRole('heading', { name: 'web-1' }).waitFor();
    await page.getByRole('region', { name: 'S.M.A.R.T.' }).waitFor();
    const ranges: [string, string][] = [
      ['30m', '30 min'],
      ['24h', '24 hours'],
      ['1w', '1 week'],
      ['30d', '30 days'],
    ];
    // One report above 10 MiB/s: the week's maximum series must put the axis in MiB/s with a
    // top tick at or above it.
    const burst = metricsReport(nodes[0]!.spec, nodes[0]!.index, 1, new Date()) as {
      metrics: { network: { recv_rate_bytes_per_sec: number }[] };
    };
    burst.metrics.network[0]!.recv_rate_bytes_per_sec = 15.2 * 1024 ** 2;
    await new SeedClient(dash.url).report(nodes[0]!.secret, '/api/node/metrics', burst);
    for (const [range, label] of ranges) {
      await page.getByRole('radio', { name: label }).click();
      await expect
        .poll(() => page.locator(`section[data-range="${range}"]`).count(), WAIT)
        .toBeGreaterThanOrEqual(7);
      await shot(page, `04-node-detail-${range}`);
      await yLabelsFit();
      // The stand-in backend draws synthetic history and ignores reports.
      if (range === '1w' && !useFake) {
        const top = async () => {
          const raw = await page
            .locator('section[aria-label="Network rate"] [data-y-labels]')
            .getAttribute('data-y-labels');
          return (JSON.parse(raw ?? '[]') as string[]).at(-1) ?? '';
        };
        await expect.poll(top, WAIT).toMatch(/ MiB\/s$/);
        expect(parseFloat(await top())).toBeGreaterThanOrEqual(15.2);
      }
    }
    expect(await page.locator('section[data-range] canvas').count()).toBeGreaterThan(0);
  });

  it('creates a node on save, shows its install command, and edits it', async () => {
    await page.goto(`${dash.url}/admin/nodes`);
    await page.getByRole('button', { name: 'Edit web-1' }).waitFor();
    await page.getByRole('button', { name: 'Add node' }).click();
    await page.getByRole('dialog', { name: 'New node' }).waitFor();
    await dialog().getByLabel('Name').fill('lab-1');
    await dialog().getByLabel('Tags').fill('lab, e2e');
    await dialog().getByLabel('Visible to guests').check();
    await dialog().getByRole('button', { name: 'Create node' }).click();
    await page.getByRole('dialog', { name: 'Node: lab-1' }).waitFor();
    const command = dialog().getByLabel('Install command');
    await expect.poll(() => command.inputValue(), WAIT).toMatch(/install\.sh \| sudo bash/);
    await shot(page, '05-admin-new-node');
    await dialog().getByLabel('Tags').fill('lab, e2e, new');
    await dialog().getByRole('button', { name: 'Save' }).click();
    await dialog().waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Edit lab-1' }).waitFor();
    await shot(page, '06-admin-nodes');
  });

  it('reorders nodes by dragging and saves the order', async () => {
    const row = (id: number) => page.locator(`tr[data-node-row="${id}"]`);
    const first = nodes[0]!;
    const last = nodes[nodes.length - 1]!;
    await row(last.id).dragTo(row(first.id));
    await page.getByRole('button', { name: 'Save order' }).click();
    await page.getByText('Display order saved').waitFor();
  });

  it('manages groups', async () => {
    await page.getByRole('link', { name: 'Groups' }).click();
    await page.getByRole('cell', { name: 'edge', exact: true }).waitFor();
    await shot(page, '07-admin-groups');
  });

  it('changes a setting and the brand follows', async () => {
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Page title').fill('E2E Monitor');
    await page.getByLabel('Top bar text').fill('E2E Ops');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    await expect.poll(() => page.title(), WAIT).toBe('E2E Monitor');
    await page.getByRole('banner').getByText('E2E Ops').waitFor();
    await shot(page, '08-admin-settings');
  });

  it('lists sessions', async () => {
    await page.getByRole('link', { name: 'Sessions' }).click();
    await page.getByText('This device').waitFor();
    await shot(page, '09-sessions');
  });

  it('switches to the dark theme', async () => {
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await card('web-1').waitFor();
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    expect(await page.evaluate("document.documentElement.classList.contains('dark')")).toBe(true);
    await shot(page, '10-dashboard-dark');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
  });

  it('shows an offline card, overview filters, a waiting node and the table view', async () => {
    // edge-1 made silent for 5 minutes in what the browser receives; lab-1 never reported.
    await page.route('**/api/front/metrics', async (route) => {
      try {
        const res = await route.fetch();
        const list = (await res.json()) as {
          node: { title: string };
          observation: { received_at: string };
        }[];
        for (const v of list) {
          if (v.node.title === 'edge-1') {
            v.observation.received_at = new Date(Date.now() - 5 * 60_000).toISOString();
          }
        }
        await route.fulfill({ contentType: 'application/json', body: JSON.stringify(list) });
      } catch {
        // the page moved on while this poll was in flight
      }
    });
    try {
      await page.goto(`${dash.url}/`);
      await card('edge-1').getByText('Last seen 5m ago').waitFor();
      expect(await card('edge-1').getByRole('meter').count()).toBe(0);
      await shot(page, '06a-offline-card');
      const overview = page.getByRole('region', { name: 'Fleet overview' });
      const offline = overview.getByRole('button', { name: /Offline/ });
      await offline.click();
      await expect.poll(() => page.locator('article[data-node-id]').count(), WAIT).toBe(1);
      await offline.click();
      const waiting = page.getByRole('region', { name: 'Waiting for the first report' });
      await waiting.getByRole('article', { name: 'lab-1' }).waitFor();
      await expect
        .poll(() => waiting.getByLabel('Install command').inputValue(), WAIT)
        .toMatch(/install\.sh/);
      await shot(page, '06b-waiting-node');
      await page.getByRole('radio', { name: 'Table' }).click();
      await page
        .getByRole('table', { name: 'Nodes' })
        .getByRole('link', { name: 'db-1', exact: true })
        .waitFor();
      await shot(page, '06c-table-view');
    } finally {
      await page.unroute('**/api/front/metrics');
      // The view is remembered by the browser: later steps expect cards.
      await page.getByRole('radio', { name: /Cards|卡片/ }).click();
    }
  });

  it('switches to Simplified Chinese and back', async () => {
    await page.goto(`${dash.url}/`);
    await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
    try {
      await page.getByRole('region', { name: '节点总览' }).waitFor();
      await card('web-1').getByText('在线', { exact: true }).waitFor();
      expect(await page.evaluate('document.documentElement.lang')).toBe('zh-CN');
      await shot(page, '06d-dashboard-zh');
    } finally {
      // The choice is remembered by the browser: later steps read English.
      await page.getByRole('combobox', { name: /Language|语言/ }).selectOption('en');
    }
    await page.getByRole('region', { name: 'Fleet overview' }).waitFor();
  });

  it('fits a phone screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${dash.url}/`);
    await card('web-1').waitFor();
    await noHorizontalOverflow();
    await shot(page, '11-phone-dashboard');
    await page.goto(`${dash.url}/nodes/${nodes[0]!.id}`);
    await page.getByRole('heading', { name: 'web-1' }).waitFor();
    await noHorizontalOverflow();
    await shot(page, '12-phone-node-detail');
    await page.goto(`${dash.url}/admin/nodes`);
    await page.getByRole('button', { name: 'Edit web-1' }).click();
    await dialog().waitFor();
    await noHorizontalOverflow();
    await shot(page, '13-phone-node-dialog');
    await page.keyboard.press('Escape');
    await page.goto(`${dash.url}/admin/settings`);
    await page.getByLabel('Page title').waitFor();
    await noHorizontalOverflow();
    await shot(page, '14-phone-settings');
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  it('logs out', async () => {
    await page.goto(`${dash.url}/`);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('link', { name: 'Sign in' }).waitFor();
    await card('web-1').waitFor();
    await expect.poll(() => card('db-1').count(), WAIT).toBe(0);
    await page.reload();
    await page.getByRole('link', { name: 'Sign in' }).waitFor();
    await shot(page, '15-logged-out');
  });

  it('stays responsive with 2,000 nodes', async () => {
    const fleet = bigFleet(2000);
    await page.route('**/api/front/metrics', (route) =>
      route.fulfill({ contentType: 'application/json', body: JSON.stringify(fleet()) }),
    );
    try {
      await page.addInitScript(LONG_TASK_PROBE);
      const started = Date.now();
      await page.goto(`${dash.url}/`);
      await page.getByText('2000 of 2000 nodes', { exact: false }).waitFor();
      await card('node-0001').waitFor();
      const firstPaintMs = Date.now() - started;
      // Three more polls, each bringing changed reports for every node.
      await page.waitForTimeout(9_500);
      const mounted = await page.locator('article').count();
      const longest = Number(await page.evaluate('Math.max(0, ...window.__longTasks)'));
      await shot(page, '16-dashboard-2000-nodes');
      const search = page.getByLabel('Search nodes');
      const typed = Date.now();
      await search.fill('node-1999');
      await card('node-1999').waitFor();
      const searchMs = Date.now() - typed;
      console.log(
        `2000 nodes: first cards after ${firstPaintMs} ms, ${mounted} cards mounted, ` +
          `longest main-thread task ${longest.toFixed(0)} ms, search answered in ${searchMs} ms`,
      );
      expect(mounted).toBeLessThan(100);
      expect(longest).toBeLessThan(1000);
    } finally {
      await page.unroute('**/api/front/metrics');
    }
  });

  it('logged no console errors on any page', () => {
    expect(browser.errors, browser.failedResponses.join('\n')).toEqual([]);
  });
});
