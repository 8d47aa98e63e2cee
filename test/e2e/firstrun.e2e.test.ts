import { hostname } from 'node:os';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, shot, type Browser } from './support/browser.js';
import { startDash, type RunningDash } from './support/dash.js';

/**
 * A new user's first minute, as `make run` starts Dash: a fresh home, the bundled local agent
 * on, nothing seeded. The guest dashboard shows this host soon after start, and says so when
 * the server goes away.
 *
 * The goal is 5 s from spawn. Spawn to first answer is Node loading Dash (about 1 s idle, 2–4 s
 * on a shared, overloaded CI box), which no assertion here can make reliable; so the test
 * asserts what Dash controls after it answers (local agent's first report, first-run poll, SPA
 * load) against a budget, and prints the spawn-to-card figure.
 */
const AFTER_ANSWER_MS = 2_500;
/** From web/src/i18n/en.ts: errors.network. */
const CANNOT_REACH = 'Cannot reach Dash. Check your connection.';

let dash: RunningDash | undefined;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  // The browser is the user's, already open: only Dash's own start counts toward the 5 s.
  browser = await launchBrowser();
  page = browser.page;
  page.setDefaultTimeout(30_000);
});

afterAll(async () => {
  await browser?.close();
  await dash?.stop();
});

describe('first run with the local agent', () => {
  it('shows this host on the guest dashboard within 2.5 s of Dash answering', async () => {
    dash = await startDash({ localAgent: true });
    const answered = performance.now();
    await page.goto(`${dash.url}/`);
    const card = page.locator(`article[aria-label="${hostname()}"]`);
    await card.waitFor({ timeout: AFTER_ANSWER_MS });
    const now = performance.now();
    const fromSpawn = Math.round(now - dash.spawnedAt!);
    const fromAnswer = Math.round(now - answered);
    console.log(
      `first-run: host card ${fromAnswer} ms after the first answer, ${fromSpawn} ms after spawn`,
    );
    expect(fromAnswer).toBeLessThanOrEqual(AFTER_ANSWER_MS);
    await shot(page, 'firstrun-01-host-card');
  });

  it('says it cannot reach Dash once the server is gone, keeping the last card', async () => {
    const card = page.locator(`article[aria-label="${hostname()}"]`);
    await card.waitFor();
    await dash!.stop();
    // The dashboard polls every 3 s; the next poll fails to connect.
    await page.getByText(CANNOT_REACH).waitFor({ timeout: 15_000 });
    await card.waitFor();
    await shot(page, 'firstrun-02-cannot-reach');
  });
});
