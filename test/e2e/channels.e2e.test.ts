import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, shot, type Browser } from './support/browser.js';
import { startDash, type RunningDash } from './support/dash.js';
import { startReceiver } from '../http/admin/channels/support.js';

/**
 * The channels page in Debian's chromium against a real Dash: a webhook channel made in the
 * form sends a test notification to a receiver started here, and its health turns healthy.
 */
const WAIT = { timeout: 30_000 };

let dash: RunningDash;
let browser: Browser;
let page: Page;
let hook: Awaited<ReturnType<typeof startReceiver>>;

const dialog = (): Locator => page.getByRole('dialog');

beforeAll(async () => {
  hook = await startReceiver();
  dash = await startDash();
  browser = await launchBrowser();
  page = browser.page;
  page.setDefaultTimeout(WAIT.timeout);
  page.on('dialog', (d) => void d.accept());
});

afterAll(async () => {
  await browser?.close();
  await dash?.stop();
  await hook?.close();
});

describe('channels page against a real Dash', () => {
  it('signs in', async () => {
    await page.goto(`${dash.url}/login`);
    await page.getByLabel('Admin password').fill(dash.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
  });

  it('creates a webhook channel, sends a test, shows it healthy', async () => {
    await page.goto(`${dash.url}/admin/channels`);
    await page.getByRole('button', { name: 'Add channel' }).click();
    await dialog().waitFor();
    await dialog().getByLabel('Name').fill('Ops hook');
    await dialog().getByLabel('URL').fill(`${hook.url}/notify`);
    await dialog().getByLabel('Signing secret (optional)').fill('e2e-secret');
    await dialog().getByRole('button', { name: 'Save' }).click();
    await dialog().waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: /Ops hook/ });
    await row.getByText('No deliveries yet').waitFor();
    await row.getByRole('button', { name: 'Send test' }).click();
    await page.getByText('Test notification sent to Ops hook.').waitFor();
    await row.getByText('Healthy').waitFor();
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]?.url).toBe('/notify');
    expect(hook.received[0]?.headers['x-webhook-signature']).toMatch(/^sha256=/);
    await shot(page, 'channels-01-healthy');
  });

  it('disables and deletes the channel', async () => {
    const row = page.getByRole('row', { name: /Ops hook/ });
    await row.getByRole('checkbox').click(); // controlled: it flips once the list reloads
    await row.getByText('Disabled').waitFor();
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No channels yet.').waitFor();
  });
});
