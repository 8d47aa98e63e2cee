import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tar from 'tar';
import { describe, expect, it } from 'vitest';
import { extractBundle } from '../../src/updater/layout.js';
import { renderNotes } from '../../src/updater/notes.js';

async function bundleOf(build: (dir: string) => void): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'dash-arch-'));
  build(dir);
  const file = join(mkdtempSync(join(tmpdir(), 'dash-arch-out-')), 'b.tar.gz');
  await tar.c({ gzip: true, file, cwd: dir, portable: true }, ['.']);
  return file;
}

describe('bundle extraction', () => {
  it('unpacks a plain tree, keeping links that stay inside it', async () => {
    const file = await bundleOf((d) => {
      mkdirSync(join(d, 'bin'));
      writeFileSync(join(d, 'bin', 'dash'), 'x');
      symlinkSync('bin/dash', join(d, 'dash-link'));
    });
    const dest = join(mkdtempSync(join(tmpdir(), 'dash-x-')), 'r');
    await extractBundle(file, dest);
    expect(existsSync(join(dest, 'bin', 'dash'))).toBe(true);
  });

  it('refuses a link pointing outside the release, creating nothing', async () => {
    const file = await bundleOf((d) => {
      writeFileSync(join(d, 'ok'), 'x');
      symlinkSync('/etc/passwd', join(d, 'escape'));
    });
    const dest = join(mkdtempSync(join(tmpdir(), 'dash-x-')), 'r');
    await expect(extractBundle(file, dest)).rejects.toThrow(/link .*escape -> \/etc\/passwd/);
    expect(existsSync(dest)).toBe(false);
  });

  it('refuses a relative link climbing out of the tree', async () => {
    const file = await bundleOf((d) => {
      mkdirSync(join(d, 'lib'));
      symlinkSync('../../outside', join(d, 'lib', 'up'));
    });
    const dest = join(mkdtempSync(join(tmpdir(), 'dash-x-')), 'r');
    await expect(extractBundle(file, dest)).rejects.toThrow(/bundle refused/);
  });

  it('refuses a file that is not a gzip tar', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'dash-x-')), 'junk.tar.gz');
    writeFileSync(file, 'not a tarball at all');
    const dest = join(mkdtempSync(join(tmpdir(), 'dash-x-')), 'r');
    await expect(extractBundle(file, dest)).rejects.toThrow();
    expect(existsSync(dest)).toBe(false);
  });
});

describe('release notes rendering', () => {
  it('escapes every character of the notes and adds only its own tags', () => {
    const html = renderNotes(
      '1.2.0',
      '# New\n\n- a <img src=x onerror=alert(1)>\n- b & c\n\nplain "text"',
    );
    expect(html).toBe(
      '<h2>Dash 1.2.0</h2>\n<h3>New</h3>\n<ul><li>a &lt;img src=x onerror=alert(1)&gt;</li><li>b &amp; c</li></ul>\n<p>plain &quot;text&quot;</p>',
    );
  });
});
