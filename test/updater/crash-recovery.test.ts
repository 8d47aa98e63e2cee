import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installedHome, publishFake, releaseKeys } from '../support/fake-release.js';
import { tempFeed, updaterFor } from './updater-helpers.js';
import { defaultPublicKeyFile } from '../../src/updater/create.js';

const CHILD = new URL('./fixtures/apply-child.ts', import.meta.url).pathname;
const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;
const keys = releaseKeys();

/** Starts an update in a child process and SIGKILLs it once it reaches `phase`. */
async function killDuring(home: string, feed: string, phase: string): Promise<void> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', CHILD, home, feed, defaultPublicKeyFile(home), phase],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes(`PARKED ${phase}`)) {
        child.kill('SIGKILL');
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`child exited early (${code}): ${out}`)));
  });
  await new Promise((r) => child.once('exit', r));
}

function recoverCli(home: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', MAIN, 'update', 'recover'], {
    env: { ...process.env, DASH_HOME: home, DASH_UPDATE_FEED: '' },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

const binVersion = (home: string) =>
  execFileSync(join(home, 'bin', 'dash'), ['--version'])
    .toString()
    .trim();

describe('an update killed during the switch', () => {
  it('before current moved: recovery_required at start, recover rolls back to a working install', async () => {
    const home = await installedHome('1.0.0', keys);
    const feed = tempFeed();
    await publishFake(feed, '1.1.0', keys);
    await killDuring(home, feed, 'switching');

    const restarted = updaterFor(home, feed, keys, '1.0.0');
    const state = restarted.status();
    expect(state).toMatchObject({
      status: 'failed',
      failure_code: 'recovery_required',
      phase: 'switching',
      available: false,
    });
    expect(state.unavailable_reason).toContain('update recover');
    await expect(restarted.check('release')).rejects.toMatchObject({
      code: 'dash_update_unavailable',
    });

    const r = recoverCli(home);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('rolled back');
    expect(binVersion(home)).toBe('1.0.0');
    expect(existsSync(join(home, 'runtime', 'dash-update', 'transaction.json'))).toBe(false);
    expect(readdirSync(join(home, 'releases'))).toEqual(['1.0.0']);
    const after = updaterFor(home, feed, keys, '1.0.0');
    expect(after.status()).toMatchObject({
      status: 'failed',
      failure_code: 'rolled_back',
      available: true,
    });
    // The install works again: the same update now goes through.
    await after.run({ action: 'update', channel: 'release', lang: 'en' });
    await after.idle();
    expect(after.status().status).toBe('completed');
    expect(binVersion(home)).toBe('1.1.0');
  }, 30_000);

  it('after current moved: recover keeps the complete new release', async () => {
    const home = await installedHome('1.0.0', keys);
    const feed = tempFeed();
    await publishFake(feed, '1.1.0', keys);
    await killDuring(home, feed, 'starting');
    expect(updaterFor(home, feed, keys, '1.0.0').status().failure_code).toBe('recovery_required');
    // Same code path as the CLI (covered above), in-process to keep the suite quick.
    expect(await updaterFor(home, feed, keys, '1.0.0').recover()).toMatchObject({
      kind: 'forward',
    });
    expect(binVersion(home)).toBe('1.1.0');
    expect(realpathSync(join(home, 'current'))).toBe(join(realpathSync(home), 'releases', '1.1.0'));
    expect(updaterFor(home, feed, keys, '1.1.0').status()).toMatchObject({
      status: 'completed',
      available: true,
    });
  }, 30_000);

  it('recover on a consistent install changes nothing', async () => {
    const home = await installedHome('1.0.0', keys);
    const u = updaterFor(home, tempFeed(), keys, '1.0.0');
    expect(await u.recover()).toEqual({ kind: 'nothing' });
    expect(binVersion(home)).toBe('1.0.0');
    expect(u.status()).toMatchObject({ status: 'idle', available: true });
  });
});
