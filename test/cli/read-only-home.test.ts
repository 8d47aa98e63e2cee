import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Dash started on a read-only file system stops with one clear line and exit code 2, never a
 * stack trace. Needs a tmpfs mount (root in CI); where mounting is refused this says so loudly.
 */
const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'dash-ro-'));
let mounted = false;

const dash = (args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    env: { ...process.env, DASH_HOME: join(dir, 'home') },
    encoding: 'utf8',
    timeout: 60_000,
  });

beforeAll(() => {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', dir], { stdio: 'pipe' });
    mounted = true;
  } catch (err) {
    process.stderr.write(
      `\n!!! read-only-home: cannot mount a tmpfs here (${(err as Error).message.split('\n')[0]}); ` +
        `the read-only start is not checked on this machine\n\n`,
    );
  }
});
afterAll(() => {
  if (mounted) execFileSync('umount', [dir], { stdio: 'pipe' });
  rmSync(dir, { recursive: true, force: true });
});

// Each test spawns `dash` through tsx two or three times: seconds each on a busy machine.
describe('a DASH_HOME on a read-only file system', { timeout: 90_000 }, () => {
  it('stops serve and migrate with one clear line naming the database', () => {
    if (!mounted) return;
    expect(dash(['migrate']).status).toBe(0);
    execFileSync('mount', ['-o', 'remount,ro', dir], { stdio: 'pipe' });
    for (const command of ['serve', 'migrate']) {
      const r = dash([command]);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr.trim()).toBe(
        `dash: the database ${join(dir, 'home', 'dash.db')} cannot be written ` +
          `(read-only file system); Dash needs a writable DASH_HOME (or DASH_DATABASE_URL)`,
      );
    }
  });
});
