import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DashUpdater, type UpdaterOptions } from '../../src/updater/service.js';
import { directoryFeed, httpFeed } from '../../src/updater/feed.js';
import { loadPublicKey } from '../../src/updater/manifest.js';
import { silentLogger } from '../../src/platform/logger.js';
import { FakeClock } from '../support/fake-clock.js';
import { runningRootOf, type ReleaseKeys } from '../support/fake-release.js';

export const tempFeed = () => mkdtempSync(join(tmpdir(), 'dash-feed-'));

/** An updater as the process running `version` from `home`'s current release would build it. */
export function updaterFor(
  home: string,
  feedLocation: string,
  keys: ReleaseKeys,
  version: string,
  extra: Partial<UpdaterOptions> = {},
): DashUpdater {
  const key = loadPublicKey(keys.publicPem);
  const feed = feedLocation.startsWith('http')
    ? httpFeed(feedLocation, key, 2000)
    : directoryFeed(feedLocation, key);
  return new DashUpdater({
    home,
    feed,
    runningRoot: runningRootOf(home),
    runningVersion: version,
    nodeVersion: '0.3.0',
    clock: new FakeClock(),
    log: silentLogger,
    restart: () => undefined,
    ...extra,
  });
}
