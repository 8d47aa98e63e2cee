import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../platform/package-root.js';
import type { UpdateConfig } from '../config/schema.js';
import { directoryFeed, httpFeed, isHttpFeed, type ReleaseFeed } from './feed.js';
import { loadPublicKey } from './manifest.js';

/** Package root of the running code. */
export const RUNNING_ROOT = resolve(PACKAGE_ROOT);

export function defaultPublicKeyFile(home: string): string {
  return join(home, 'config', 'update-signing.pub.pem');
}

/**
 * The configured feed with its pinned key, or why self-update cannot look for releases.
 * The key is pinned per install (a file in DASH_HOME written by whoever installed Dash), so a
 * compromised feed cannot ship a release signed with a key of its own.
 */
export function feedFromConfig(
  home: string,
  cfg: UpdateConfig,
): { feed: ReleaseFeed } | { problem: string } {
  if (cfg.feed === '')
    return { problem: 'no release feed configured (update_feed / DASH_UPDATE_FEED)' };
  const keyFile = cfg.publicKeyFile ?? defaultPublicKeyFile(home);
  if (!existsSync(keyFile)) return { problem: `no pinned release public key at ${keyFile}` };
  let key;
  try {
    key = loadPublicKey(readFileSync(keyFile, 'utf8'));
  } catch (err) {
    return { problem: `release public key ${keyFile} unusable: ${(err as Error).message}` };
  }
  return {
    feed: isHttpFeed(cfg.feed) ? httpFeed(cfg.feed, key) : directoryFeed(resolve(cfg.feed), key),
  };
}
