import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, shot, type Browser } from './support/browser.js';
import { startDash, type RunningDash } from './support/dash.js';
import { seed, startReporting, type SeededNode } from './support/seed.js';

/**
 * The alerts pages in Debian's chromium against a real Dash: a rule made in the editor and
 * mounted on one node opens an event from live reports (after Dash's first minute, in which
 * no event opens), which shows on the events page and as a badge on the node's card.
 */
const WAIT = { timeout: 30_000 };

let dash: RunningDash;
let browser: Browser;
let page: Page;
let nodes: SeededNode[];
let stopReporting: () => Promise<void> = async () => {};

const dialog = (): Locator => page.getByRole('dialog');

beforeAll(async () => {
  // A short startup grace (alerts_startup_grace) instead of the minute, still waited out below.
  dash = await startDash({ env: { DASH_ALERTS_STARTUP_GRACE: '10s' } });
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

describe('alerts pages against a real Dash', () => {
  it('signs in', async () => {
    await page.goto(`${dash.url}/login`);
    await page.getByLabel('Admin password').fill(dash.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
  });

  it('creates a rule with the metric picker and lists it next to the built-ins', async () => {
    await page.goto(`${dash.url}/admin/alerts`);
    await page.getByRole('cell', { name: /node_offline/ }).waitFor();
    await page.getByRole('button', { name: 'Add rule' }).click();
    await dialog().waitFor();
    await dialog().getByLabel('Name').fill('TCP seen');
    await dialog().getByLabel('Metric').selectOption('conn.tcp');
    await dialog().getByLabel('Operator').selectOption('>=');
    await dialog().getByLabel('Threshold', { exact: true }).fill('0');
    await dialog().getByLabel('Must hold for').selectOption('0');
    await dialog().getByRole('button', { name: 'Save' }).click();
    await dialog().waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'TCP seen' }).waitFor();
    await shot(page, 'alerts-01-rules');
  });

  it('mounts the rule on one node', async () => {
    await page.getByLabel('Rule', { exact: true }).selectOption({ label: 'TCP seen' });
    const box = page.getByLabel('Mounted on web-1');
    expect(await box.isChecked()).toBe(false);
    await box.click(); // checked once the PUT is saved and the mounts are read back
    await expect.poll(() => box.isChecked(), WAIT).toBe(true);
    expect(await page.getByLabel('Mounted on db-1').isChecked()).toBe(false);
  });

  it('shows the event with why it fired once Dash is past its startup grace', async () => {
    await page.goto(`${dash.url}/admin/alert-events`);
    const row = page.locator('tr[data-event-row]', { hasText: 'TCP seen' });
    await expect
      .poll(
        async () => {
          if ((await row.count()) > 0) return true;
          await page.getByRole('button', { name: 'Apply filters' }).click();
          await page.waitForTimeout(2000);
          return (await row.count()) > 0;
        },
        { timeout: 100_000, interval: 1000 },
      )
      .toBe(true);
    // why it fired: the comparison and the values of the window
    expect(await row.innerText()).toMatch(/web-1[\s\S]*conn\.tcp[\s\S]*>= 0 · Values \d+/);
    await page.reload();
    await page.getByText('1 open').waitFor();
    await shot(page, 'alerts-02-events');
  });

  it('acknowledges the open event: it stays open', async () => {
    const row = page.locator('tr[data-event-row]', { hasText: 'TCP seen' });
    await row.getByRole('button', { name: 'Acknowledge' }).click();
    await row.getByText(/^Acknowledged /).waitFor();
    await page.reload();
    await row.getByText(/^Acknowledged /).waitFor();
    expect(await row.getByText('Open', { exact: true }).count()).toBe(1);
    await shot(page, 'alerts-02b-acked');
  });

  it('adds a silence for a node and deletes it', async () => {
    await page.goto(`${dash.url}/admin/alerts`);
    await page.getByLabel('Silence', { exact: true }).selectOption('node');
    await page.getByLabel('Target', { exact: true }).selectOption({ label: 'web-1' });
    await page.getByLabel('For', { exact: true }).selectOption({ label: '1 hour' });
    await page.getByLabel('Note', { exact: true }).fill('maintenance');
    await page.getByRole('button', { name: 'Add silence' }).click();
    const row = page.locator('tr[data-silence-row]', { hasText: 'maintenance' });
    await row.getByText('Active').waitFor();
    expect(await row.innerText()).toContain('web-1');
    await shot(page, 'alerts-02c-silence');
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No silences.').waitFor();
  });

  it('puts an alert badge on the node card', async () => {
    await page.goto(`${dash.url}/`);
    const badge = page.locator('article[aria-label="web-1"] [data-alert-badge]');
    await expect.poll(() => badge.innerText(), WAIT).toBe('1 alert');
    expect(await page.locator('article[aria-label="db-1"] [data-alert-badge]').count()).toBe(0);
    await shot(page, 'alerts-03-badge');
  });

  it('closes the event when the rule is disabled', async () => {
    await page.goto(`${dash.url}/admin/alerts`);
    await page
      .getByRole('row', { name: /TCP seen/ })
      .getByRole('button', { name: 'Edit' })
      .click();
    await dialog().getByLabel('Enabled').uncheck();
    await dialog().getByRole('button', { name: 'Save' }).click();
    await dialog().waitFor({ state: 'detached' });
    await page.goto(`${dash.url}/admin/alert-events`);
    await page.getByLabel('Status').selectOption('closed');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('Closed · Rule disabled').waitFor();
  });
});
