import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, shot, type Browser } from './support/browser.js';
import { freePort, REPO_ROOT } from './support/dash.js';
import {
  installLayout,
  switchCurrent,
  writeLauncher,
  writeStamp,
} from '../../src/updater/layout.js';

/**
 * Self-update end to end: a real release bundle built by scripts/make-release.ts (as
 * `make release` does) is offered by a directory feed to a Dash installed from the same bundle
 * under an older version. The admin updates from the settings page; a minimal supervisor
 * restarts bin/dash when Dash exits after the switch, as systemd's Restart=always would.
 */
const WAIT = { timeout: 60_000 };
const PASSWORD = 'e2e-Admin-Password-1';
const NEW = '0.2.0';
const OLD = '0.1.0';

let browser: Browser;
let page: Page;
let url: string;
let home: string;
let child: ChildProcess | undefined;
let stopped = false;
let out = '';

function startSupervised(env: Record<string, string>): void {
  const start = () => {
    child = spawn(join(home, 'bin', 'dash'), ['serve'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => {
      out += `\n[supervisor] dash exited with ${code}\n`;
      if (!stopped) start();
    });
  };
  start();
}

async function version(): Promise<string | undefined> {
  try {
    const res = await fetch(`${url}/api/version/`, { signal: AbortSignal.timeout(1000) });
    return ((await res.json()) as { version: string }).version;
  } catch {
    return undefined;
  }
}

async function waitForVersion(v: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if ((await version()) === v) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Dash ${v} did not answer:\n${out}`);
}

beforeAll(async () => {
  const work = mkdtempSync(join(tmpdir(), 'dash-e2e-update-'));
  const feed = join(work, 'feed');
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const keyFile = join(work, 'signing.pem');
  writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(join(work, 'NOTES.md'), '# What is new\n\n- Self-update from the settings page');
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/make-release.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DASH_RELEASE_KEY_FILE: keyFile,
      DASH_RELEASE_OUT: feed,
      DASH_RELEASE_VERSION: NEW,
      DASH_RELEASE_NOTES: join(work, 'NOTES.md'),
    },
    stdio: 'inherit',
  });

  // Install the same build as the older version: unpack it and stamp 0.1.0.
  home = join(work, 'home');
  const layout = installLayout(home);
  const dir = join(layout.releasesDir, OLD);
  mkdirSync(dir, { recursive: true });
  await tar.x({ file: join(feed, `dash-${NEW}.tar.gz`), cwd: dir });
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as object;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...pkg, version: OLD }));
  await writeStamp(dir, {
    version: OLD,
    sha256: '0'.repeat(64),
    installed_at: '2026-11-01T00:00:00Z',
  });
  await switchCurrent(layout, dir);
  await writeLauncher(layout);
  mkdirSync(join(home, 'config'));
  writeFileSync(
    join(home, 'config', 'update-signing.pub.pem'),
    publicKey.export({ type: 'spki', format: 'pem' }),
  );

  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  startSupervised({
    DASH_HOME: home,
    DASH_ADMIN_PASSWORD: PASSWORD,
    DASH_LISTEN: `127.0.0.1:${port}`,
    DASH_PUBLIC_URL: url,
    DASH_TIMEZONE: 'UTC',
    DASH_LOG_LEVEL: 'warn',
    DASH_UPDATE_FEED: feed,
  });
  await waitForVersion(OLD);
  browser = await launchBrowser();
  page = browser.page;
  page.setDefaultTimeout(WAIT.timeout);
}, 300_000);

afterAll(async () => {
  stopped = true;
  child?.kill('SIGTERM');
  await browser?.close();
});

describe('Dash self-update from the admin settings page', () => {
  it('checks, shows the notes, updates with progress and comes back on the new version', async () => {
    await page.goto(`${url}/login`);
    await page.getByLabel('Admin password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
    await page.goto(`${url}/admin/settings`);
    await expect
      .poll(async () => page.getByTestId('dash-update-current').textContent(), WAIT)
      .toBe(OLD);
    await page.getByRole('button', { name: 'Check for updates' }).click();
    await expect
      .poll(async () => page.getByTestId('dash-update-latest').textContent(), WAIT)
      .toContain(NEW);
    expect(await page.getByTestId('dash-update-notes').textContent()).toContain(
      'Self-update from the settings page',
    );
    await shot(page, 'dash-update-available');
    await page.getByRole('button', { name: `Update to ${NEW}` }).click();
    await page.getByTestId('dash-update-progress').waitFor(WAIT);
    await waitForVersion(NEW);
    await page.reload();
    await expect
      .poll(async () => page.getByTestId('dash-update-current').textContent(), WAIT)
      .toBe(NEW);
    expect(await page.getByTestId('dash-update-last-job').textContent()).toContain('completed');
    await shot(page, 'dash-update-completed');
    expect(readFileSync(join(home, 'current', 'package.json'), 'utf8')).toContain(NEW);
  });
});
