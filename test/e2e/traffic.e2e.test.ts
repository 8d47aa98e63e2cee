import { counterSlot, encodeCounters } from '../../src/store/sqlite/traffic-counter-codec.js';
import { join } from 'node:path';
import Database from 'better-sqlite3';
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
    // The first report's counters show once the page reads them; reload until the interface shows.
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

  it('projects the cycle end with its range and calibrates it with a recorded bill', async () => {
    const web = nodes.find((n) => n.spec.name === 'web-1')!;
    const api = new SeedClient(dash.url);
    await api.login(dash.password);
    // A WHMCS cycle that began 12 days ago (UTC), with P95 on.
    const DAY = 86_400_000;
    const now = Date.now();
    const anchor = new Date(now - 12 * DAY).toISOString().slice(0, 10);
    await api.call('PATCH', `/api/admin/nodes/${web.id}`, {
      traffic_cycle_mode: 'whmcs_compatible',
      traffic_billing_anchor_date: anchor,
      traffic_billing_timezone: 'UTC',
      traffic_p95_enabled: true,
    });
    // Five weeks of an uplink's counters (every 5 minutes, a busier day every few days),
    // written straight into the database as if collected, then turned into facts by a rebuild.
    const db = new Database(join(dash.home!, 'dash.db'));
    db.pragma('busy_timeout = 10000');
    const from = Date.parse(`${anchor}T00:00:00Z`) - 20 * DAY;
    const to = now - 10 * 60_000;
    let rx = 0;
    let tx = 0;
    // One sample per minute row (SQLite 0016 stores a node's minute as one blob).
    const put = db.prepare(
      'INSERT INTO traffic_counter_minute (slot, node_id, data) VALUES (?, ?, ?)',
    );
    const insert = {
      run: (node: number, iface: string, at: number, rx: number, tx: number) =>
        put.run(counterSlot(at), node, encodeCounters([{ iface, at, rx, tx }])),
    };
    db.transaction(() => {
      for (let at = from; at <= to; at += 300_000) {
        insert.run(web.id, 'wan0', at, rx, tx);
        const d = Math.floor((at - from) / DAY);
        const rate = 400_000 + (d % 4 === 0 ? 250_000 : (d % 3) * 60_000);
        rx += Math.round(rate * 0.3 * 300);
        tx += rate * 300;
      }
      db.prepare(
        `INSERT INTO traffic_iface (node_id, iface, first_at, last_at, last_rx, last_tx)
         VALUES (?, 'wan0', ?, ?, ?, ?)`,
      ).run(web.id, from, to, rx, tx);
    })();
    db.close();
    await api.call('POST', `/api/admin/nodes/${web.id}/traffic/rebuild`);
    await expect
      .poll(
        async () =>
          (await api.call<{ status: string }>('GET', '/api/admin/nodes/traffic/rebuild')).status,
        WAIT,
      )
      .toBe('completed');

    await page.goto(`${dash.url}/nodes/${web.id}/traffic?iface=wan0`);
    const current = page.getByRole('region', { name: 'Current cycle' });
    const forecast = current.getByTestId('traffic-forecast');
    await expect.poll(() => forecast.innerText(), WAIT).toMatch(/Projected at cycle end/);
    const text = await forecast.innerText();
    expect(text).toMatch(/90% range [\d.]+ [KMGT]iB – [\d.]+ [KMGT]iB/);
    expect(text).toContain('Projected P95 at cycle end');
    expect(text).toMatch(/1[12] complete days seen/);
    await shot(page, 'traffic-04-forecast');

    // Record the provider's bill for the previous cycle: 3 % more than Dash measured.
    const panel = page.getByRole('region', { name: 'Calibration: the provider’s bills' });
    await panel.getByText('No bill recorded for this interface.').waitFor();
    const monthly = await api.call<{
      items: Array<{ cycle: { start: string }; stats: { out_bytes: number } }>;
    }>('GET', `/api/statistics/traffic/monthly?server_id=${web.id}&iface=wan0&months=2`);
    const previous = monthly.items[1]!;
    const billedGb = ((previous.stats.out_bytes * 1.03) / 1e9).toFixed(3);
    await panel.getByLabel('Billed amount').fill(billedGb);
    await panel.getByLabel('Unit').selectOption('GB');
    await panel.getByLabel('Note (optional)').fill('invoice from the provider');
    await panel.getByRole('button', { name: 'Record bill' }).click();
    await panel.getByText('Bill recorded.').waitFor();
    const row = panel.getByRole('row', { name: /invoice from the provider/ });
    await expect.poll(() => row.innerText(), WAIT).toMatch(/\+3\.0%/);
    await expect.poll(() => row.innerText(), WAIT).toContain('In force');
    const adjusted = current.getByTestId('traffic-adjusted');
    await expect.poll(() => adjusted.innerText(), WAIT).toMatch(/Estimated bill/);
    expect(await adjusted.innerText()).toMatch(/× 1\.03/);
    await expect.poll(() => forecast.innerText(), WAIT).toContain('Estimated bill at cycle end');
    await expect
      .poll(() => page.getByRole('region', { name: 'Monthly history' }).innerText(), WAIT)
      .toMatch(/\(bill\)/);
    await shot(page, 'traffic-05-calibration');

    // Revoke it: the record stays, the figures are raw again.
    await row.getByRole('button', { name: /^Revoke/ }).click();
    await row.getByRole('button', { name: 'Revoke', exact: true }).click();
    await panel.getByText('Bill revoked; figures are raw again.').waitFor();
    await expect.poll(() => row.innerText(), WAIT).toContain('Revoked');
    await expect.poll(() => adjusted.count(), WAIT).toBe(0);
    await expect
      .poll(() => page.getByRole('region', { name: 'Monthly history' }).innerText(), WAIT)
      .not.toMatch(/\((bill|estimate)\)/);
    await shot(page, 'traffic-06-revoked');
  });
});
