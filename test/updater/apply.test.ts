import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, realpathSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Server } from 'node:http';
import { installedHome, publishFake, releaseKeys, serveFeed } from '../support/fake-release.js';
import { tempFeed, updaterFor } from './updater-helpers.js';
import { writeFeedIndex } from '../../src/updater/publish.js';
import { signManifest } from '../../src/updater/manifest.js';

const keys = releaseKeys();
const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

const binVersion = (home: string) =>
  execFileSync(join(home, 'bin', 'dash'), ['--version'])
    .toString()
    .trim();
const current = (home: string) => realpathSync(join(home, 'current'));

async function planAndRun(home: string, feed: string, version = '1.0.0') {
  const u = updaterFor(home, feed, keys, version);
  const check = await u.check('release');
  const started = await u.run({
    action: 'update',
    channel: 'release',
    lang: 'en',
    target_version: check.latest_version,
    expected_current_version: check.current_version,
    expected_install_revision: check.install_revision,
  });
  await u.idle();
  return { u, check, started, status: u.status() };
}

describe.each(['directory', 'http'])('self-update from a %s feed', (kind) => {
  async function feedFor(dir: string): Promise<string> {
    if (kind === 'directory') return dir;
    const served = await serveFeed(dir);
    servers.push(served.server);
    return served.url;
  }

  it('applies a signed update: current switches, bin/dash starts the new version', async () => {
    const home = await installedHome('1.0.0', keys);
    const dir = tempFeed();
    await publishFake(dir, '1.1.0', keys);
    const restart = vi.fn();
    const u = updaterFor(home, await feedFor(dir), keys, '1.0.0', { restart });
    const check = await u.check('release');
    expect(check).toMatchObject({
      current_version: '1.0.0',
      latest_version: '1.1.0',
      version_status: 'available',
      target_channel: 'release',
    });
    expect(check.install_revision).toMatch(/^[0-9a-f]{64}$/);
    const started = await u.run({
      action: 'update',
      channel: 'release',
      lang: 'en',
      target_version: '1.1.0',
      expected_current_version: '1.0.0',
      expected_install_revision: check.install_revision,
    });
    expect(started.code).toBe(202);
    expect(started.state).toMatchObject({ status: 'running', target_version: '1.1.0' });
    await u.idle();
    expect(u.status()).toMatchObject({
      status: 'completed',
      phase: 'done',
      exit_code: 0,
      target_version: '1.1.0',
    });
    expect(restart).toHaveBeenCalledOnce();
    expect(binVersion(home)).toBe('1.1.0');
    expect(current(home)).toBe(join(realpathSync(home), 'releases', '1.1.0'));
    // The previous release stays for rollback; no staging leftovers.
    expect(readdirSync(join(home, 'releases')).sort()).toEqual(['1.0.0', '1.1.0']);
    // After the restart the new process runs from the new release and sees the finished job.
    const after = updaterFor(home, await feedFor(dir), keys, '1.1.0');
    expect(after.status()).toMatchObject({ status: 'completed', available: true });
    expect((await after.check('release')).version_status).toBe('current');
  });

  it('refuses a bundle whose digest differs from the manifest, switching nothing', async () => {
    const home = await installedHome('1.0.0', keys);
    const dir = tempFeed();
    const signed = await publishFake(dir, '1.1.0', keys);
    const bundle = join(dir, signed.manifest.bundle);
    const bytes = readFileSync(bundle);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 10) ^ 0xff, bytes.length - 10);
    writeFileSync(bundle, bytes);
    const before = current(home);
    const { status } = await planAndRun(home, await feedFor(dir));
    expect(status).toMatchObject({ status: 'failed', failure_code: 'update_failed' });
    expect(status.log_tail).toContain('does not match manifest');
    expect(current(home)).toBe(before);
    expect(binVersion(home)).toBe('1.0.0');
    expect(readdirSync(join(home, 'releases'))).toEqual(['1.0.0']);
  });

  it('refuses a truncated bundle, switching nothing', async () => {
    const home = await installedHome('1.0.0', keys);
    const dir = tempFeed();
    const signed = await publishFake(dir, '1.1.0', keys);
    truncateSync(join(dir, signed.manifest.bundle), Math.floor(signed.manifest.size / 2));
    const before = current(home);
    const { status } = await planAndRun(home, await feedFor(dir));
    expect(status).toMatchObject({ status: 'failed', failure_code: 'update_failed' });
    expect(status.log_tail).toContain('truncated');
    expect(current(home)).toBe(before);
    expect(readdirSync(join(home, 'releases'))).toEqual(['1.0.0']);
  });

  it('ignores a release with a bad signature and refuses to install it', async () => {
    const home = await installedHome('1.0.0', keys);
    const dir = tempFeed();
    const other = releaseKeys();
    const forged = await publishFake(dir, '1.1.0', other);
    expect(forged.manifest.version).toBe('1.1.0');
    // Also a manifest edited after signing (notes replaced) with the right key's old signature.
    const good = await publishFake(dir, '1.0.1', keys);
    const edited = { ...good, manifest: { ...good.manifest, notes: 'tampered' } };
    writeFileSync(join(dir, '1.0.1.manifest.json'), JSON.stringify(edited));
    writeFeedIndex(dir);
    const u = updaterFor(home, await feedFor(dir), keys, '1.0.0');
    const check = await u.check('release');
    expect(check.latest_version).toBe('');
    expect(check.version_status).toBe('unknown');
    const started = await u.run({
      action: 'update',
      channel: 'release',
      lang: 'en',
      target_version: '1.1.0',
      expected_current_version: '1.0.0',
      expected_install_revision: check.install_revision,
    });
    expect(started.code).toBe(202);
    await u.idle();
    expect(u.status()).toMatchObject({ status: 'failed', failure_code: 'update_failed' });
    expect(u.status().log_tail).toContain('does not verify');
    expect(binVersion(home)).toBe('1.0.0');
    expect(readdirSync(join(home, 'releases'))).toEqual(['1.0.0']);
  });
});

describe('self-update plans and channels', () => {
  it('a plan made before the install changed fails with install_changed and picks no other target', async () => {
    const home = await installedHome('1.0.0', keys);
    const dir = tempFeed();
    await publishFake(dir, '1.1.0', keys);
    await publishFake(dir, '1.2.0', keys);
    const u = updaterFor(home, dir, keys, '1.0.0');
    const stale = await u.check('release');
    expect(stale.latest_version).toBe('1.2.0');
    // The install changes under the plan (a reinstall rewrites the release stamp).
    const stamp = join(home, 'releases', '1.0.0', 'RELEASE.json');
    const s = JSON.parse(readFileSync(stamp, 'utf8')) as Record<string, string>;
    writeFileSync(stamp, JSON.stringify({ ...s, installed_at: '2026-11-20T00:00:00Z' }));
    const started = await u.run({
      action: 'update',
      channel: 'release',
      lang: 'en',
      target_version: stale.latest_version,
      expected_current_version: stale.current_version,
      expected_install_revision: stale.install_revision,
    });
    expect(started.code).toBe(202);
    await u.idle();
    expect(u.status()).toMatchObject({
      status: 'failed',
      failure_code: 'install_changed',
      target_version: '1.2.0',
    });
    expect(binVersion(home)).toBe('1.0.0');
    expect(readdirSync(join(home, 'releases'))).toEqual(['1.0.0']);
  });

  it('a plan naming an old installed version fails with install_changed', async () => {
    const home = await installedHome('1.0.0', keys);
    const dir = tempFeed();
    await publishFake(dir, '1.1.0', keys);
    const u = updaterFor(home, dir, keys, '1.0.0');
    const check = await u.check('release');
    await u.run({
      action: 'update',
      channel: 'release',
      lang: 'en',
      target_version: '1.1.0',
      expected_current_version: '0.9.0',
      expected_install_revision: check.install_revision,
    });
    await u.idle();
    expect(u.status().failure_code).toBe('install_changed');
  });

  it('the release channel skips prereleases; the prerelease channel offers them', async () => {
    const home = await installedHome('1.0.0', keys);
    const dir = tempFeed();
    await publishFake(dir, '1.1.0', keys);
    await publishFake(dir, '1.2.0-rc.1', keys);
    const u = updaterFor(home, dir, keys, '1.0.0');
    expect((await u.check('release')).latest_version).toBe('1.1.0');
    const pre = await u.check('prerelease');
    expect(pre).toMatchObject({ latest_version: '1.2.0-rc.1', target_channel: 'prerelease' });
  });

  it('reinstall of the current version installs beside it and switches', async () => {
    const home = await installedHome('1.0.0', keys);
    const dir = tempFeed();
    await publishFake(dir, '1.0.0', keys);
    const u = updaterFor(home, dir, keys, '1.0.0');
    const check = await u.check('release');
    expect(check.version_status).toBe('current');
    await expect(
      u.run({
        action: 'update',
        channel: 'release',
        lang: 'en',
        target_version: '1.0.0',
        expected_current_version: '1.0.0',
        expected_install_revision: check.install_revision,
      }),
    ).rejects.toMatchObject({ code: 'dash_update_current' });
    await u.run({ action: 'reinstall', channel: 'release', lang: 'en' });
    await u.idle();
    expect(u.status()).toMatchObject({ status: 'completed' });
    expect(current(home)).toMatch(/releases\/1\.0\.0~/);
    expect(binVersion(home)).toBe('1.0.0');
  });

  it('refuses a signed bundle whose bin/dash reports another version', async () => {
    const home = await installedHome('1.0.0', keys);
    const dir = tempFeed();
    await publishFake(dir, '1.1.0', keys, {
      tree: (d) =>
        writeFileSync(join(d, 'bin', 'dash'), '#!/bin/sh\necho 9.9.9\n', { mode: 0o755 }),
    });
    const { status } = await planAndRun(home, dir);
    expect(status).toMatchObject({ status: 'failed', failure_code: 'update_failed' });
    expect(status.log_tail).toContain('reports 9.9.9');
    expect(binVersion(home)).toBe('1.0.0');
  });

  it('signManifest output verifies only for its own bytes', async () => {
    const dir = tempFeed();
    const signed = await publishFake(dir, '2.0.0', keys);
    const again = signManifest(signed.manifest, keys.privateKey);
    expect(again.signature).toBe(signed.signature);
  });
});
