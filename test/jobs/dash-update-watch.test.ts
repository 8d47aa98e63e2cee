import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dashUpdateWatchJob, inWindow, minuteOfDay } from '../../src/jobs/dash-update-watch.js';
import { silentLogger } from '../../src/platform/logger.js';
import type { SystemSettings } from '../../src/domain/settings/system-settings.js';
import { installedHome, publishFake, releaseKeys } from '../support/fake-release.js';
import { tempFeed, updaterFor } from '../updater/updater-helpers.js';

const keys = releaseKeys();
const AT_0400_UTC = Date.UTC(2026, 10, 21, 4, 0);
const AT_1200_UTC = Date.UTC(2026, 10, 21, 12, 0);

async function setup(mode: SystemSettings['dash_update_mode']) {
  const home = await installedHome('1.0.0', keys);
  const feed = tempFeed();
  await publishFake(feed, '1.1.0', keys);
  const updater = updaterFor(home, feed, keys, '1.0.0');
  const job = dashUpdateWatchJob({
    updater,
    settings: async () => ({ dash_update_channel: 'release', dash_update_mode: mode }),
    log: silentLogger,
    intervalMs: 3_600_000,
    window: { start: 180, end: 300 },
    zone: 'UTC',
  });
  return { home, updater, job };
}

describe('dash update modes', () => {
  it('manual never reads the feed', async () => {
    const { updater, job } = await setup('manual');
    await job.runOnce(AT_0400_UTC);
    expect(updater.status().update_available_version).toBeUndefined();
    expect(updater.status().status).toBe('idle');
  });

  it('notify surfaces the available version without updating', async () => {
    const { updater, job } = await setup('notify');
    await job.runOnce(AT_0400_UTC);
    expect(updater.status()).toMatchObject({ status: 'idle', update_available_version: '1.1.0' });
  });

  it('auto updates inside the window only', async () => {
    const { home, updater, job } = await setup('auto');
    await job.runOnce(AT_1200_UTC);
    await updater.idle();
    expect(updater.status()).toMatchObject({ status: 'idle', update_available_version: '1.1.0' });
    await job.runOnce(AT_0400_UTC);
    await updater.idle();
    expect(updater.status()).toMatchObject({ status: 'completed', origin: 'auto' });
    expect(realpathSync(join(home, 'current'))).toContain('1.1.0');
  });

  it('windows may wrap midnight and use the configured zone', () => {
    expect(inWindow(23 * 60, { start: 22 * 60, end: 120 })).toBe(true);
    expect(inWindow(60, { start: 22 * 60, end: 120 })).toBe(true);
    expect(inWindow(12 * 60, { start: 22 * 60, end: 120 })).toBe(false);
    expect(minuteOfDay(AT_0400_UTC, 'Asia/Shanghai')).toBe(12 * 60);
  });
});
