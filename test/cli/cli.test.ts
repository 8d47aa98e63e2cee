import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { AdminPassword } from '../../src/domain/auth/admin-password.js';
import { FakeClock } from '../support/fake-clock.js';
import { tempHome } from '../support/build-app.js';

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;

function dash(args: string[], env: Record<string, string> = {}, input?: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    env: { ...process.env, ...env },
    input,
    encoding: 'utf8',
    timeout: 30_000,
  });
}

// Each test spawns `dash` through tsx two or three times: seconds each on a busy machine.
describe('dash CLI', { timeout: 90_000 }, () => {
  it('prints its version', () => {
    const r = dash(['--version']);
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('lists its commands in --help', () => {
    const r = dash(['--help']);
    expect(r.status).toBe(0);
    for (const cmd of ['serve', 'migrate', 'set-password']) expect(r.stdout).toContain(cmd);
  });

  it('migrates a fresh database and reports it up to date afterwards', () => {
    const home = tempHome();
    const first = dash(['migrate'], { DASH_HOME: home });
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('0001_init');
    const second = dash(['migrate'], { DASH_HOME: home });
    expect(second.stdout).toContain('up to date');
  });

  it('sets the admin password from stdin, storing only a hash', async () => {
    const home = tempHome();
    expect(dash(['migrate'], { DASH_HOME: home }).status).toBe(0);
    const r = dash(['set-password'], { DASH_HOME: home }, 'correct horse battery\n');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`admin password updated in ${join(home, 'dash.db')}`);
    const store = openSqliteStore(join(home, 'dash.db'), 0);
    const stored = await store.settings.get('auth.admin_password_hash');
    expect(stored).toMatch(/^"scrypt\$/);
    expect(stored).not.toContain('correct horse');
    expect(
      await new AdminPassword(store.settings, new FakeClock()).verify('correct horse battery'),
    ).toBe(true);
    await store.close();
  });

  it('refuses to create a new database, naming the one it looked for', () => {
    const home = tempHome();
    const r = dash(['set-password'], { DASH_HOME: home }, 'correct horse battery\n');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`no Dash database at ${join(home, 'dash.db')}`);
    expect(existsSync(join(home, 'dash.db'))).toBe(false);
  });

  it('ends every session on each password change (--end-sessions is accepted)', async () => {
    const home = tempHome();
    expect(dash(['migrate'], { DASH_HOME: home }).status).toBe(0);
    const r = dash(['set-password'], { DASH_HOME: home }, 'correct horse 2\n');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('every session was ended');
    const again = dash(
      ['set-password', '--end-sessions'],
      { DASH_HOME: home },
      'correct horse 3\n',
    );
    expect(again.status).toBe(0);
    const store = openSqliteStore(join(home, 'dash.db'), 0);
    expect(await store.settings.get('auth.user_version')).toBe('2');
    await store.close();
  });

  it('refuses a short password', () => {
    const home = tempHome();
    expect(dash(['migrate'], { DASH_HOME: home }).status).toBe(0);
    const r = dash(['set-password'], { DASH_HOME: home }, 'short\n');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('at least 8');
  });

  it('stops with a message naming the key on invalid configuration', () => {
    const r = dash(['migrate'], { DASH_HOME: tempHome(), DASH_TIMEZONE: 'Nowhere/Land' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('DASH_TIMEZONE');
  });
});
