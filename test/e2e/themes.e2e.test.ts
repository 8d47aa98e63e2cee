import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, shot, type Browser } from './support/browser.js';
import { startDash, type RunningDash } from './support/dash.js';
import { buildZip, makePng, themeManifest } from '../support/theme-zip.js';

/** Themes in the browser: upload a zip, apply it, see Dash's own pages change, go back, delete. */
const WAIT = { timeout: 30_000 };
const THEME_BG = 'rgb(18, 52, 86)'; // #123456

let dash: RunningDash;
let browser: Browser;
let page: Page;

const themeCard = (name: string): Locator => page.locator('li', { hasText: name });
const pageBackground = () =>
  page.evaluate<string>('getComputedStyle(document.documentElement).backgroundColor');

async function themeZipFile(): Promise<string> {
  const zip = await buildZip([
    { name: 'theme.json', data: themeManifest('harbour', { name: 'Harbour' }) },
    // The same background for both schemes, whichever the headless browser prefers.
    {
      name: 'tokens.css',
      data: ':root{--dash-bg:#123456;--dash-accent:#ff6600}\n:root.dark{--dash-bg:#123456}',
    },
    { name: 'preview.png', data: makePng(40, 20) },
  ]);
  const path = join(mkdtempSync(join(tmpdir(), 'dash-e2e-theme-')), 'harbour.zip');
  writeFileSync(path, zip);
  return path;
}

beforeAll(async () => {
  dash = await startDash();
  browser = await launchBrowser();
  page = browser.page;
  page.setDefaultTimeout(WAIT.timeout);
  page.on('dialog', (d) => void d.accept());
});

afterAll(async () => {
  await browser?.close();
  await dash?.stop();
});

describe('themes in the web UI', () => {
  it('serves an empty text/css active theme on a fresh install', async () => {
    const res = await fetch(`${dash.url}/theme/active.css`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await res.text()).toBe('');
  });

  it('signs in and opens the themes tab, which lists the built-in theme', async () => {
    await page.goto(`${dash.url}/login`);
    await page.getByLabel('Admin password').fill(dash.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
    await page.goto(`${dash.url}/admin/themes`);
    await page.getByRole('link', { name: 'Themes' }).waitFor();
    await themeCard('Operator').waitFor();
  });

  it('shows why a theme package is refused', async () => {
    const bad = await buildZip([
      { name: 'theme.json', data: themeManifest('sneaky') },
      { name: 'tokens.css', data: ':root{--dash-bg:url(https://tracker.example/x.png)}' },
    ]);
    const path = join(mkdtempSync(join(tmpdir(), 'dash-e2e-theme-')), 'sneaky.zip');
    writeFileSync(path, bad);
    await page.locator('#theme-upload').setInputFiles(path);
    await page
      .getByRole('alert')
      .getByText(/url\(\) is not allowed/)
      .waitFor();
    expect(await themeCard('sneaky').count()).toBe(0);
  });

  it('uploads a theme zip and shows it with its preview', async () => {
    const before = await pageBackground();
    expect(before).not.toBe(THEME_BG);
    await page.locator('#theme-upload').setInputFiles(await themeZipFile());
    await page.getByText('Theme "Harbour" uploaded.').waitFor();
    const card = themeCard('Harbour');
    await card.getByRole('img', { name: 'Preview of Harbour' }).waitFor();
    const loaded = await card
      .getByRole('img')
      .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
    expect(loaded).toBe(40);
    // Uploading alone changes nothing.
    expect(await pageBackground()).toBe(before);
  });

  it('applies it: the page recolours at once and stays themed after a reload', async () => {
    await themeCard('Harbour').getByRole('button', { name: 'Apply' }).click();
    await expect.poll(pageBackground, WAIT).toBe(THEME_BG);
    await themeCard('Harbour').getByText('Active').waitFor();
    await shot(page, 'themes-01-applied');
    await page.goto(`${dash.url}/`);
    await expect.poll(pageBackground, WAIT).toBe(THEME_BG);
    await expect
      .poll(() => page.evaluate('document.documentElement.dataset.theme'), WAIT)
      .toBe('harbour');
    await shot(page, 'themes-02-dashboard');
  });

  it("goes back to Dash's default look and deletes the theme", async () => {
    await page.goto(`${dash.url}/admin/themes`);
    await page.getByRole('button', { name: "Use Dash's default look" }).click();
    await expect.poll(pageBackground, WAIT).not.toBe(THEME_BG);
    await themeCard('Harbour').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => themeCard('Harbour').count(), WAIT).toBe(0);
    const res = await fetch(`${dash.url}/api/admin/system/themes/`);
    expect(res.status).toBe(401);
  });

  it('logged no console errors besides the refused upload', () => {
    const unexpected = browser.errors.filter((e) => !e.includes('status of 400'));
    expect(unexpected, browser.failedResponses.join('\n')).toEqual([]);
  });
});
