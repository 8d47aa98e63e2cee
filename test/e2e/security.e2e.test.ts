import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type Browser } from './support/browser.js';
import { startDash, type RunningDash } from './support/dash.js';
import { seed, startReporting, type SeededNode } from './support/seed.js';

/**
 * The built SPA under Dash's content security policy: every page the admin and guests use,
 * charts included, runs without a single violation. (That the headers forbid framing is
 * checked without a browser, in test/http/security-headers.test.ts.)
 */
const WAIT = { timeout: 30_000 };
let dash: RunningDash;
let browser: Browser;
let page: Page;
let nodes: SeededNode[];
let stopReporting: () => Promise<void> = async () => {};

// Runs in the page before its scripts: records what the policy blocked.
const RECORD_VIOLATIONS = `
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI);
  });
`;

const violations = async (): Promise<string[]> => page.evaluate<string[]>('window.__cspViolations');

beforeAll(async () => {
  dash = await startDash();
  nodes = await seed(dash.url, dash.password);
  stopReporting = startReporting(dash.url, nodes);
  browser = await launchBrowser();
  page = browser.page;
  page.setDefaultTimeout(WAIT.timeout);
  await page.addInitScript(RECORD_VIOLATIONS);
});

afterAll(async () => {
  await stopReporting();
  await browser?.close();
  await dash?.stop();
});

describe('content security policy', () => {
  it('is sent with the page and lets the dashboard run', async () => {
    const res = await page.goto(`${dash.url}/`);
    expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res?.headers()['x-frame-options']).toBe('DENY');
    await page.locator('article[aria-label="web-1"]').waitFor();
    expect(await violations()).toEqual([]);
  });

  it('lets the admin pages and a node page with its charts run', async () => {
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Admin password').fill(dash.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
    await page.goto(`${dash.url}/nodes/${nodes[0]!.id}`);
    await page.getByRole('heading', { name: 'web-1' }).waitFor();
    await page.locator('.uplot').first().waitFor();
    expect(await violations()).toEqual([]);
    for (const path of ['/admin/nodes', '/admin/settings']) {
      await page.goto(`${dash.url}${path}`);
      await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
      expect(await violations(), path).toEqual([]);
    }
    expect(browser.errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
  });
});
