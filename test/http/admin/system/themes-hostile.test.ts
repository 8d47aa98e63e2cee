import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../support/build-app.js';
import { adminHeaders } from '../../../support/credentials.js';
import {
  buildZip,
  makePng,
  renameEntries,
  themeManifest,
  validThemeEntries,
  type ZipEntry,
} from '../../../support/theme-zip.js';
import {
  listThemes,
  resetThemes,
  storedThemeFiles,
  uploadTheme,
} from '../../../support/themes-app.js';

let t: TestApp;
let auth: Record<string, string>;

// One app for the file: each test leaves the theme state as a fresh install had it.
beforeAll(async () => {
  t = await buildTestApp();
  auth = await adminHeaders(t);
});
afterAll(async () => t.close());
afterEach(async () => resetThemes(t));

const upload = (zip: Buffer, field = 'file') => uploadTheme(t, auth, zip, field);
const list = () => listThemes(t, auth);
const themeFiles = () => storedThemeFiles(t);

/** Each hostile archive, refused with 400 invalid_theme_package and nothing written. */
describe('hostile archives', () => {
  const valid = () => validThemeEntries('ocean');
  const withEntry = (e: ZipEntry) => [...valid(), e];
  const replace = (name: string, data: string) =>
    valid().map((e) => (e.name === name ? { ...e, data } : e));

  const cases: Array<[string, RegExp, () => Promise<Buffer>]> = [
    [
      'not a zip',
      /not a readable zip/,
      () => Promise.resolve(Buffer.from('PK\u0003\u0004 definitely not a zip')),
    ],
    [
      'path traversal (../)',
      /invalid relative path/,
      async () =>
        renameEntries(
          await buildZip(withEntry({ name: 'xxxREADME.md', data: 'x' })),
          'xxxREADME.md',
          '../README.md',
        ),
    ],
    [
      'absolute path',
      /absolute path/,
      async () =>
        renameEntries(
          await buildZip(withEntry({ name: 'xetc/passwd', data: 'x' })),
          'xetc/passwd',
          '/etc/passwd',
        ),
    ],
    [
      'backslash path',
      /invalid characters/,
      async () =>
        renameEntries(
          await buildZip(withEntry({ name: 'a/README.md', data: 'x' })),
          'a/README.md',
          'a\\README.md',
        ),
    ],
    [
      'symlink',
      /symbolic link/,
      () =>
        buildZip([
          ...valid().filter((e) => e.name !== 'README.md'),
          { name: 'README.md', data: '/etc/passwd', mode: 0o120777 },
        ]),
    ],
    [
      'directory entry',
      /no directories/,
      () => buildZip(withEntry({ name: 'assets/x.css', data: 'x' })),
    ],
    [
      'file not allowed by the manifest rules',
      /not an allowed file/,
      () => buildZip(withEntry({ name: 'evil.js', data: 'x' })),
    ],
    [
      'duplicate entry',
      /appears twice/,
      () => buildZip(withEntry({ name: 'README.md', data: 'again' })),
    ],
    [
      'too many entries',
      /more than 32 entries/,
      () =>
        buildZip([
          ...valid(),
          ...Array.from({ length: 28 }, (_, i) => ({ name: `__MACOSX/f${i}`, data: 'x' })),
        ]),
    ],
    [
      'entry over the 20 MiB file limit',
      /larger than the file limit/,
      () =>
        buildZip([
          ...valid().filter((e) => e.name !== 'README.md'),
          { name: 'README.md', data: Buffer.alloc(21 * 1024 * 1024, 0x20) },
        ]),
    ],
    [
      'zip bomb (compression ratio)',
      /compression ratio/,
      () =>
        buildZip([
          ...valid().filter((e) => e.name !== 'README.md'),
          { name: 'README.md', data: Buffer.alloc(5 * 1024 * 1024, 0x61) },
        ]),
    ],
    [
      'entry larger than its header declares',
      /too many bytes/,
      async () => {
        const zip = await buildZip(
          valid().map((e) => (e.name === 'README.md' ? { ...e, data: 'y'.repeat(300) } : e)),
        );
        // Patch the declared uncompressed size of README.md (central directory) down to 10.
        const cd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
        const out = Buffer.from(zip);
        let at = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
        while (at !== -1 && at <= cd) {
          const nameLen = out.readUInt16LE(at + 28);
          const name = out.toString('utf8', at + 46, at + 46 + nameLen);
          if (name === 'README.md') {
            out.writeUInt32LE(10, at + 24);
          }
          at = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4);
        }
        return out;
      },
    ],
    [
      'missing theme.json',
      /theme.json is missing/,
      () => buildZip(valid().filter((e) => e.name !== 'theme.json')),
    ],
    [
      'missing tokens.css',
      /tokens.css is missing/,
      () => buildZip(valid().filter((e) => e.name !== 'tokens.css')),
    ],
    [
      'manifest with an unknown field',
      /unknown field/,
      () => buildZip(replace('theme.json', themeManifest('ocean', { extra: 1 }))),
    ],
    [
      'manifest with a reserved id',
      /reserved/,
      () => buildZip(replace('theme.json', themeManifest('operator'))),
    ],
    [
      'manifest with a bad id',
      /id must match/,
      () => buildZip(replace('theme.json', themeManifest('Ocean!'))),
    ],
    [
      'manifest with a bad skin value',
      /skin.admin.shell/,
      () =>
        buildZip(
          replace(
            'theme.json',
            themeManifest('ocean', {
              skin: {
                admin: { shell: 'floating', frame: 'flat' },
                dashboard: { summary: 'cards', density: 'compact' },
              },
            }),
          ),
        ),
    ],
    [
      'manifest that is not JSON',
      /not valid UTF-8 JSON/,
      () => buildZip(replace('theme.json', '{"id":')),
    ],
    [
      'CSS with url()',
      /url\(\) is not allowed/,
      () => buildZip(replace('tokens.css', ':root{--bg:url(https://x/y.png)}')),
    ],
    [
      'CSS with an escaped url()',
      /url\(\) is not allowed/,
      () => buildZip(replace('tokens.css', ':root{--bg:u\\72l(x)}')),
    ],
    [
      'CSS with an at-rule',
      /at-rules/,
      () => buildZip(replace('tokens.css', '@import "x.css";:root{--a:1}')),
    ],
    [
      'CSS with !important',
      /!important/,
      () => buildZip(replace('tokens.css', ':root{--a:1 !important}')),
    ],
    [
      'CSS with a foreign selector',
      /selector "body"/,
      () => buildZip(replace('tokens.css', 'body{--a:1}')),
    ],
    [
      'CSS with a normal property',
      /not a custom property/,
      () => buildZip(replace('tokens.css', ':root{color:red}')),
    ],
    [
      'CSS mixing light and dark selectors',
      /mix light and dark/,
      () => buildZip(replace('tokens.css', ':root,:root.dark{--a:1}')),
    ],
    [
      'CSS with nesting',
      /nested rules/,
      () => buildZip(replace('tokens.css', ':root{--a:1; :root{--b:2}}')),
    ],
    [
      'empty tokens.css',
      /at least one custom property/,
      () => buildZip(replace('tokens.css', '/* nothing */')),
    ],
    [
      'invalid README encoding',
      /README.md is not valid UTF-8/,
      () =>
        buildZip(
          valid().map((e) =>
            e.name === 'README.md' ? { ...e, data: Buffer.from([0xff, 0xfe]) } : e,
          ),
        ),
    ],
    [
      'preview that is not a PNG',
      /not a PNG/,
      () => buildZip(valid().map((e) => (e.name === 'preview.png' ? { ...e, data: 'GIF89a' } : e))),
    ],
    [
      'preview over 4096 pixels',
      /4096 pixels/,
      () =>
        buildZip(
          valid().map((e) => (e.name === 'preview.png' ? { ...e, data: makePng(4097, 1) } : e)),
        ),
    ],
  ];

  it.each(cases)('%s', async (_label, reason, make) => {
    const res = await upload(await make());
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'invalid_theme_package',
      message: expect.stringMatching(reason) as string,
    });
    expect(themeFiles()).toEqual([]);
    expect((await list()).map((i) => i.id)).toEqual(['operator']);
  });

  it('a refused replacement leaves the stored theme untouched', async () => {
    await upload(await buildZip(validThemeEntries('ocean', '#123123')));
    const before = themeFiles().sort();
    const res = await upload(await buildZip(replace('tokens.css', ':root{--a:url(x)}')));
    expect(res.statusCode).toBe(400);
    expect(themeFiles().sort()).toEqual(before);
  });

  it('ignores __MACOSX entries', async () => {
    const res = await upload(
      await buildZip([...valid(), { name: '__MACOSX/._tokens.css', data: 'junk' }]),
    );
    expect(res.statusCode).toBe(201);
  });
});
