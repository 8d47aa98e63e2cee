import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, shot, type Browser } from './support/browser.js';
import { startDash, type RunningDash } from './support/dash.js';
import { seed, SeedClient, startReporting, type SeededNode } from './support/seed.js';

/** The traffic pages in Debian's chromium against a real Dash with reporting nodes. */
const WAIT = { timeout: 30_000 };

let dash: RunningDash;
let browser: Browser;
let page: Page;
let nodes: SeededNode[];
let stopReporting: () => Promise<void> = async () => {};

beforeAll(async () => {
  dash = await startDash();
  nodes = await seed(dash.url, dash.password);
  stopReporting = startReporting(dash.url, nodes);
  browser = await launchBrowser();
  page = browser.page;
  page.setDefaultTimeout(WAIT.timeout);
});

afterAll(async () => {
  await stopReporting();
  await browser?.close();
  await dash?.stop();
});

describe('traffic pages', () => {
  it('switches to Billing mode in the admin traffic settings', async () => {
    await page.goto(`${dash.url}/login`);
    await page.getByLabel('Admin password').fill(dash.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
    await page.goto(`${dash.url}/admin/traffic`);
    await page.getByLabel('Usage mode').selectOption('billing');
    const api = new SeedClient(dash.url);
    await expect
      .poll(
        async () =>
          (await api.call<{ usage_mode: string }>('GET', '/api/statistics/traffic/settings'))
            .usage_mode,
        WAIT,
      )
      .toBe('billing');
    await shot(page, 'traffic-01-admin-settings');
  });

  it('opens a node’s traffic page from its dashboard card', async () => {
    await page.goto(`${dash.url}/`);
    await page.getByRole('link', { name: 'Traffic of web-1' }).click();
    await page.waitForURL(/\/nodes\/\d+\/traffic/);
    // Counters are collected every 10 s; reload until the interface shows.
    await expect
      .poll(
        async () => {
          await page.reload();
          const iface = page.getByLabel('Interface');
          await iface.or(page.getByText('has not reported any network interface')).waitFor();
          return iface.count();
        },
        { timeout: 60_000, interval: 3000 },
      )
      .toBe(1);
    await page.getByRole('region', { name: 'Current cycle' }).waitFor();
    const quality = page.getByTestId('traffic-quality');
    await expect.poll(() => quality.innerText(), WAIT).toMatch(/Coverage: \d+\.\d%/);
    await page.getByRole('region', { name: 'Monthly history' }).waitFor();
    await page.getByRole('radio', { name: 'Previous cycle' }).click();
    await page.getByRole('radio', { name: 'Previous cycle', checked: true }).waitFor();
    await page.getByRole('radio', { name: 'Current cycle' }).click();
    await shot(page, 'traffic-02-node-page');
  });

  it('reaches the traffic page from the node page as well', async () => {
    const web = nodes.find((n) => n.spec.name === 'web-1');
    await page.goto(`${dash.url}/nodes/${web?.id}`);
    await page.getByRole('link', { name: 'Traffic of web-1' }).click();
    await page.waitForURL(/\/traffic$/);
    await page.getByLabel('Interface').waitFor();
  });

  it('rebuilds a node’s facts from the admin page and shows the result', async () => {
    await page.goto(`${dash.url}/admin/traffic`);
    await page.getByLabel('Nodes').selectOption({ label: 'web-1' });
    await page.getByRole('button', { name: 'Rebuild' }).click();
    const state = page.getByTestId('rebuild-state');
    await expect.poll(() => state.innerText(), WAIT).toContain('Rebuild of web-1 finished.');
    await page.getByRole('progressbar').waitFor();
    await shot(page, 'traffic-03-rebuild');
  });
});
