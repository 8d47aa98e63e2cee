import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packThemeDir } from '../../src/themes/pack.js';
import { readThemeZip } from '../../src/themes/zip-reader.js';
import { tempHome } from '../support/build-app.js';
import { validThemeEntries } from '../support/theme-zip.js';

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;

function themeDir(): string {
  const dir = join(tempHome(), 'my-theme');
  mkdirSync(dir);
  for (const e of validThemeEntries('ocean')) writeFileSync(join(dir, e.name), e.data);
  return dir;
}

describe('dash theme pack', () => {
  it('zips a valid folder into a zip that the upload reader accepts', () => {
    const dir = themeDir();
    writeFileSync(join(dir, '.DS_Store'), 'junk');
    const out = join(tempHome(), 'ocean.zip');
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', MAIN, 'theme', 'pack', dir, '--output', out],
      { encoding: 'utf8', timeout: 30_000 },
    );
    expect(r.stderr).toContain('skipped .DS_Store');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(out);
    const zip = readFileSync(out);
    return expect(readThemeZip(zip).then((f) => [...f.keys()].sort())).resolves.toEqual(
      ['README.md', 'preview.png', 'recipes.css', 'theme.json', 'tokens.css'].sort(),
    );
  });

  it('refuses a folder that breaks a rule, with the same reason the server gives', async () => {
    const dir = themeDir();
    writeFileSync(join(dir, 'tokens.css'), ':root { --bg: url(x.png) }');
    await expect(packThemeDir(dir)).rejects.toMatchObject({
      code: 'invalid_theme_package',
      message: expect.stringMatching(/url\(\) is not allowed/) as string,
    });
  });

  it('refuses a symlinked package file', async () => {
    const linked = join(tempHome(), 'linked');
    mkdirSync(linked);
    for (const e of validThemeEntries('ocean')) {
      if (e.name !== 'README.md') writeFileSync(join(linked, e.name), e.data);
    }
    symlinkSync('/etc/hostname', join(linked, 'README.md'));
    await expect(packThemeDir(linked)).rejects.toMatchObject({
      message: expect.stringMatching(/not a regular file/) as string,
    });
  });
});
