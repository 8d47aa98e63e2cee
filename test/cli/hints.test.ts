import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dashCommand } from '../../src/cli/hints.js';

function checkout(): string {
  const root = mkdtempSync(join(tmpdir(), 'dash-hint-'));
  mkdirSync(join(root, 'bin'));
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'bin', 'dash'), '');
  return root;
}

describe('dashCommand', () => {
  it('names the checkout launcher, not a dash that is not on PATH', () => {
    const root = checkout();
    const ctx = { cwd: root, entry: join(root, 'dist', 'main.js'), home: join(root, 'data') };
    expect(dashCommand(ctx, 'set-password')).toBe('bin/dash set-password');
  });

  it('adds DASH_HOME when the data directory is not the default ./data', () => {
    const root = checkout();
    const ctx = { cwd: root, entry: 'dist/main.js', home: join(root, 'var', 'my data') };
    expect(dashCommand(ctx, 'set-password')).toBe("DASH_HOME='var/my data' bin/dash set-password");
  });

  it('uses absolute paths from elsewhere, and the database URL when one was given', () => {
    const root = checkout();
    const ctx = {
      cwd: mkdtempSync(join(tmpdir(), 'dash-elsewhere-')),
      entry: join(root, 'bin', 'dash'),
      home: join(root, 'data'),
      databaseUrl: 'sqlite:/srv/dash.db',
    };
    expect(dashCommand(ctx, 'set-password')).toBe(
      `DASH_HOME=${join(root, 'data')} DASH_DATABASE_URL=sqlite:/srv/dash.db ${join(root, 'bin', 'dash')} set-password`,
    );
  });

  it('falls back to plain dash without a launcher beside the entry', () => {
    const ctx = { cwd: tmpdir(), entry: undefined, home: join(tmpdir(), 'data') };
    expect(dashCommand(ctx, 'set-password')).toBe('dash set-password');
  });
});
